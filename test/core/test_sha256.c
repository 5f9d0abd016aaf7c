/*
 * test/core/test_sha256.c - unit tests for core/sha256.c.
 *
 * Digests of the FIPS 180-2 appendix B / NIST CAVS examples ("", "abc", the
 * 448- and 896-bit messages, one million 'a'), of lengths around the padding
 * boundaries (55/56/63/64/65 bytes and the same one block later, checked
 * against Python's hashlib), chunking independence of the incremental API,
 * and sha256_file_hex on a temp file and on a missing file.
 */
#include "core/sha256.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void to_hex(const uint8_t md[SHA256_LEN], char hex[2 * SHA256_LEN + 1])
{
	for (int i = 0; i < SHA256_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
}

static void check_digest(const void *data, size_t len, const char *want)
{
	uint8_t md[SHA256_LEN];
	char hex[2 * SHA256_LEN + 1];

	sha256(data, len, md);
	to_hex(md, hex);
	ck_assert_str_eq(hex, want);
}

START_TEST(test_sha256_empty)
{
	check_digest("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check_digest(NULL, 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}
END_TEST

START_TEST(test_sha256_abc)
{
	check_digest("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}
END_TEST

START_TEST(test_sha256_448_bits)
{
	const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

	check_digest(m, strlen(m), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}
END_TEST

START_TEST(test_sha256_896_bits)
{
	const char *m = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
			"hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

	check_digest(m, strlen(m), "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}
END_TEST

START_TEST(test_sha256_million_a_incremental)
{
	uint8_t chunk[1000], md[SHA256_LEN];
	char hex[2 * SHA256_LEN + 1];
	sha256_ctx ctx;

	memset(chunk, 'a', sizeof(chunk));
	sha256_init(&ctx);
	for (int i = 0; i < 1000; i++)
		sha256_update(&ctx, chunk, sizeof(chunk));
	sha256_final(&ctx, md);
	to_hex(md, hex);
	ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

static const struct {
	size_t len;         /* number of 'a' bytes */
	const char *digest; /* expected, hex */
} pad_cases[] = {
	{ 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
	{ 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
	{ 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34" },
	{ 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
	{ 65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0" },
	{ 119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb" },
	{ 120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c" },
	{ 128, "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e" },
};

START_TEST(test_sha256_padding_boundaries)
{
	uint8_t a[128];

	memset(a, 'a', sizeof(a));
	check_digest(a, pad_cases[_i].len, pad_cases[_i].digest);
}
END_TEST

START_TEST(test_sha256_chunking_does_not_matter)
{
	uint8_t data[300], whole[SHA256_LEN], parts[SHA256_LEN];
	sha256_ctx ctx;

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7 + 3);
	sha256(data, sizeof(data), whole);
	for (size_t step = 1; step <= 130; step++) {
		sha256_init(&ctx);
		for (size_t off = 0; off < sizeof(data); off += step) {
			size_t n = sizeof(data) - off < step ? sizeof(data) - off : step;
			sha256_update(&ctx, data + off, n);
		}
		sha256_update(&ctx, NULL, 0);
		sha256_final(&ctx, parts);
		ck_assert_mem_eq(parts, whole, SHA256_LEN);
	}
}
END_TEST

START_TEST(test_sha256_file_hex)
{
	char path[] = "/tmp/cxl_sha256_XXXXXX";
	char hex[2 * SHA256_LEN + 1];
	uint8_t data[256 * 40];
	cxl_err err = { 0 };
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)i;
	ck_assert_int_eq(write(fd, data, sizeof(data)), (ssize_t)sizeof(data));
	close(fd);
	ck_assert_int_eq(sha256_file_hex(path, hex, &err), 0);
	unlink(path);
	ck_assert_str_eq(hex, "e96760a87768717bcebcfd25ddc7d46b4dbc95a4b0014def080c08539f7d90d0");
	ck_assert_int_eq(err.code, CXL_OK);
}
END_TEST

START_TEST(test_sha256_file_hex_missing)
{
	char hex[2 * SHA256_LEN + 1] = "untouched";
	cxl_err err = { 0 };

	ck_assert_int_eq(sha256_file_hex("/nonexistent/cxl.bin", hex, &err), CXL_EIO);
	ck_assert_int_eq(err.code, CXL_EIO);
	ck_assert_str_eq(err.msg, "/nonexistent/cxl.bin: cannot open: No such file or directory");
	ck_assert_str_eq(hex, "untouched");
	ck_assert_int_eq(sha256_file_hex("/nonexistent/cxl.bin", hex, NULL), CXL_EIO);
}
END_TEST

Suite *sha256_suite(void)
{
	Suite *s = suite_create("sha256");
	TCase *vectors = tcase_create("fips_vectors");
	TCase *incremental = tcase_create("incremental");
	TCase *file = tcase_create("file");

	tcase_add_test(vectors, test_sha256_empty);
	tcase_add_test(vectors, test_sha256_abc);
	tcase_add_test(vectors, test_sha256_448_bits);
	tcase_add_test(vectors, test_sha256_896_bits);
	tcase_add_loop_test(vectors, test_sha256_padding_boundaries, 0,
			    (int)(sizeof(pad_cases) / sizeof(pad_cases[0])));
	tcase_add_test(incremental, test_sha256_million_a_incremental);
	tcase_add_test(incremental, test_sha256_chunking_does_not_matter);
	tcase_add_test(file, test_sha256_file_hex);
	tcase_add_test(file, test_sha256_file_hex_missing);
	suite_add_tcase(s, vectors);
	suite_add_tcase(s, incremental);
	suite_add_tcase(s, file);
	return s;
}
