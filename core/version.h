/*
 * core/version.h - the cxlfab version string (run.version, --version).
 */
#ifndef CXL_CORE_VERSION_H
#define CXL_CORE_VERSION_H

#define CXL_VERSION "0.1.0"

#endif
