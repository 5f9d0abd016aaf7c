/*
 * traces/samples/lackey-prog.c - the program whose valgrind lackey trace is
 * lackey-small.log (a real trace of a few thousand lines, so that the tests
 * run without valgrind; test/integration/t_trace.sh records it again when
 * valgrind and cc are there).  x86-64 Linux only.
 *
 * No C library (its start-up alone is ~170 000 lackey lines): _start stores
 * an array, modifies every other element (lackey M lines), sums it (L lines),
 * and stores 8 bytes across each of 8 line boundaries (S lines that the
 * importer splits into two 4-byte records), then exits through the system
 * call.  Built and recorded with
 *
 *   cc -O1 -static -nostdlib -fno-builtin -fno-stack-protector -fno-pie -no-pie \
 *      -o lackey-prog lackey-prog.c
 *   valgrind --tool=lackey --trace-mem=yes --log-file=lackey-small.log ./lackey-prog
 */
typedef long long1 __attribute__((aligned(1)));

static long a[256];

void _start(void);

void _start(void)
{
	long s = 0;

	for (int i = 0; i < 256; i++)
		a[i] = i;
	for (int i = 0; i < 256; i += 2)
		a[i] += 3;
	for (int i = 0; i < 256; i++)
		s += a[i];
	for (int i = 0; i < 8; i++)
		*(volatile long1 *)((char *)a + 64 * i + 60) = s;
	__asm__ volatile("syscall" : : "a"(60), "D"((int)(s & 1)) : "rcx", "r11", "memory");
	__builtin_unreachable();
}
