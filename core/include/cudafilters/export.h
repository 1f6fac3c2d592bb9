/* cudafilters: symbol visibility and language glue for the public headers. */
#ifndef CUDAFILTERS_EXPORT_H
#define CUDAFILTERS_EXPORT_H

#if defined(CF_BUILDING_LIBRARY) && defined(__GNUC__)
#define CF_API __attribute__((visibility("default")))
#else
#define CF_API
#endif

#ifdef __cplusplus
#define CF_BEGIN_DECLS extern "C" {
#define CF_END_DECLS }
#else
#define CF_BEGIN_DECLS
#define CF_END_DECLS
#endif

#endif
