/*
 * core/cfg_peek.h - which top-level groups a config mentions, before it is
 * loaded: the step that picks the system (PHOLD, fabric) whose schema the
 * strict load then checks the file against.
 *
 * Loading against the selected system's schema only (plus the engine's)
 * keeps a PHOLD config free of fabric keys and the reverse: a key of the
 * other system is an unknown key, config.cfg dumps only what applies and
 * reloads as the same system, and required keys are per system.
 */
#ifndef CXL_CORE_CFG_PEEK_H
#define CXL_CORE_CFG_PEEK_H

#include <stddef.h>

/**
 * cfg_peek_group - does @group appear as a top-level group of the file at
 * @path (NULL: no file) or as the first component of a --set path?
 * Returns 1 or 0, or -1 if the file cannot be read or parsed (cfg_load then
 * reports the error properly).
 */
int cfg_peek_group(const char *path, const char *const *sets, size_t nsets,
		   const char *group);

#endif
