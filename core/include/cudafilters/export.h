/* cudafilters: symbol visibility and language glue for the public headers. */
#ifndef CUDAFILTERS_EXPORT_H
#define CUDAFILTERS_EXPORT_H

#if defined(CF_BUILDING_LIBRARY) && defined(__GNUC__)
#define CF_API __attribute__((visibility("default")))
#else
#define CF_API
#endif

/* Parameter structs passed inline (libplacebo's habit): the address of a
 * compound literal from designated initializers, fields left out zero. C
 * only: C++17 has no compound literals; there, fill a zero-initialised
 * struct (`cf_scheduler_params p = {}; p.depth = 2;`). */
#ifndef __cplusplus
#define CF_PARAMS_(type, ...) (&(const type){ __VA_ARGS__ })
#endif

#ifdef __cplusplus
#define CF_BEGIN_DECLS extern "C" {
#define CF_END_DECLS }
#else
#define CF_BEGIN_DECLS
#define CF_END_DECLS
#endif

#endif
