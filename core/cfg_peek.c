/*
 * core/cfg_peek.c - top-level groups of a config without validating it
 * (see cfg_peek.h).  Reads the file with libconfig once per call: configs
 * are small, and this runs a handful of times at start-up.
 */
#include "core/cfg_peek.h"

#include <libconfig.h>
#include <string.h>

int cfg_peek_group(const char *path, const char *const *sets, size_t nsets,
		   const char *group)
{
	size_t n = strlen(group);

	for (size_t i = 0; i < nsets; i++)
		if (!strncmp(sets[i], group, n) && sets[i][n] == '.')
			return 1;
	if (!path)
		return 0;
	config_t c;
	config_init(&c);
	if (config_read_file(&c, path) != CONFIG_TRUE) {
		config_destroy(&c);
		return -1;
	}
	const config_setting_t *s = config_setting_get_member(config_root_setting(&c), group);
	int found = s && config_setting_is_group(s);
	config_destroy(&c);
	return found;
}
