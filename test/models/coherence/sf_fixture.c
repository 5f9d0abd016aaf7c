/*
 * test/models/coherence/sf_fixture.c - the snoop-filter tests' shared helper
 * (sf_fixture.h).
 */
#include "test/models/coherence/sf_fixture.h"

sf *sfx_mk(uint32_t entries, uint32_t assoc, enum sf_policy pol, uint32_t invblk)
{
	const sf_params p = { .entries = entries, .assoc = assoc, .policy = pol,
			      .invblk_max = invblk };
	char why[64] = "";
	sf *s = sf_create(&p, why);

	ck_assert_msg(s != NULL, "sf_create: %s", why);
	return s;
}

uint32_t sfx_ins(sf *s, uint64_t line)
{
	uint32_t e = sf_insert(s, line);

	REQ_NE(e, SF_NONE);
	REQ_EQ(sf_find(s, line), e);
	return e;
}

uint64_t sfx_line_of(sf *s, uint32_t e)
{
	return sf_entry_at(s, e)->line;
}
