/*
 * test/models/fabric/test_fab_kind.c - unit tests for the kind table
 * (models/fabric/fab_kind.h, models/kinds.c): the real table passes its
 * contract, look-ups by name and by model, and the check rejects each kind
 * of broken row (fed copies of the table with one row changed).
 */
#include <check.h>
#include <string.h>

#include "models/fabric/fab_kind.h"

START_TEST(test_fab_kind_table_passes)
{
	cxl_err e = { 0 };

	ck_assert_msg(fab_kinds_check(&e) == 0, "%s", e.msg);
	for (uint32_t k = 0; k < fab_nkinds; k++) {
		ck_assert_str_eq(fab_kinds[k].ops->name, fab_kinds[k].name);
		ck_assert_uint_eq(fab_kind_of_ops(fab_kinds[k].ops) <= k, 1); /* host, accel differ */
	}
	ck_assert_uint_eq(fab_kind_has(FAB_HOST, FAB_ROLE_ENDPOINT | FAB_ROLE_REQUESTER), 1);
	ck_assert_uint_eq(fab_kind_has(FAB_MEMORY, FAB_ROLE_TARGET | FAB_ROLE_MULTIHEAD), 1);
	ck_assert_uint_eq(fab_kind_has(FAB_SWITCH, FAB_ROLE_ENDPOINT), 0);
	ck_assert_uint_eq(fab_kind_has(FAB_BUS, FAB_ROLE_BUS), 1);
}
END_TEST

START_TEST(test_fab_kind_find_by_name_and_model)
{
	char names[256];

	ck_assert_uint_eq(fab_kind_find("host"), FAB_HOST);
	ck_assert_uint_eq(fab_kind_find("accel"), FAB_ACCEL);
	ck_assert_uint_eq(fab_kind_find("memory"), FAB_MEMORY);
	ck_assert_uint_eq(fab_kind_find("switch"), FAB_SWITCH);
	ck_assert_uint_ne(fab_kind_find("device"), UINT32_MAX); /* registered by models/kinds.c */
	ck_assert_uint_eq(fab_kind_find("bus"), UINT32_MAX); /* a connection, not a node */
	ck_assert_uint_eq(fab_kind_find("hosts"), UINT32_MAX);
	ck_assert_uint_eq(fab_kind_of_ops(fab_kinds[FAB_ACCEL].ops), FAB_ACCEL);
	ck_assert_uint_eq(fab_kind_of_ops(NULL), UINT32_MAX);
	fab_kind_names(names, sizeof(names));
	ck_assert_str_eq(names, "switch host accel memory device");
}
END_TEST

/* fab_kinds_check_table() of the real table with row @k replaced by @row
 * (@e is cleared first: an error record keeps its first error). */
static int check_with(uint32_t k, fab_kind_desc row, cxl_err *e)
{
	fab_kind_desc t[FAB_MAX_KINDS + 1];

	*e = (cxl_err){ 0 };
	memcpy(t, fab_kinds, fab_nkinds * sizeof(*t));
	t[k] = row;
	return fab_kinds_check_table(t, k < fab_nkinds ? fab_nkinds : k + 1, e);
}

START_TEST(test_fab_kind_check_rejects_broken_rows)
{
	static const model_ops gadget_ops = { .name = "gadget" };
	fab_kind_desc r;
	cxl_err e = { 0 };

	/* a node that is neither an endpoint nor a switch could not be reached */
	r = fab_kinds[FAB_HOST];
	r.name = "gadget", r.ops = &gadget_ops, r.roles = FAB_ROLE_REQUESTER;
	ck_assert_int_eq(check_with(fab_nkinds, r, &e), CXL_EINTERNAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "either an endpoint or a switch"));
	/* both is wrong too */
	r.roles = FAB_ROLE_ENDPOINT | FAB_ROLE_SWITCH;
	ck_assert_int_eq(check_with(fab_nkinds, r, &e), CXL_EINTERNAL);
	/* a requester must be an endpoint */
	r.roles = FAB_ROLE_SWITCH | FAB_ROLE_REQUESTER;
	ck_assert_int_eq(check_with(fab_nkinds, r, &e), CXL_EINTERNAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "for endpoints"));
	/* a well-formed new kind is accepted */
	r.roles = FAB_ROLE_ENDPOINT | FAB_ROLE_REQUESTER;
	ck_assert_msg(check_with(fab_nkinds, r, &e) == 0, "%s", e.msg);
	/* its name must match its model's */
	r.name = "widget";
	ck_assert_int_eq(check_with(fab_nkinds, r, &e), CXL_EINTERNAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "ops->name"));
	/* names are unique */
	r = fab_kinds[FAB_HOST];
	ck_assert_int_eq(check_with(fab_nkinds, r, &e), CXL_EINTERNAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "twice"));
	/* built-in rows stay in enum order */
	ck_assert_int_eq(check_with(FAB_HOST, fab_kinds[FAB_ACCEL], &e), CXL_EINTERNAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "enum fab_kind order"));
	/* one bus row, with no other role */
	r = fab_kinds[FAB_BUS];
	r.roles |= FAB_ROLE_ENDPOINT;
	ck_assert_int_eq(check_with(FAB_BUS, r, &e), CXL_EINTERNAL);
	/* schemas and a colour are required */
	r = fab_kinds[FAB_MEMORY];
	r.schemas = NULL;
	ck_assert_int_eq(check_with(FAB_MEMORY, r, &e), CXL_EINTERNAL);
	r = fab_kinds[FAB_MEMORY];
	r.colour = NULL;
	ck_assert_int_eq(check_with(FAB_MEMORY, r, &e), CXL_EINTERNAL);
}
END_TEST

Suite *fab_kind_suite(void)
{
	Suite *s = suite_create("fab_kind");
	TCase *tc = tcase_create("table");

	tcase_add_test(tc, test_fab_kind_table_passes);
	tcase_add_test(tc, test_fab_kind_find_by_name_and_model);
	tcase_add_test(tc, test_fab_kind_check_rejects_broken_rows);
	suite_add_tcase(s, tc);
	return s;
}
