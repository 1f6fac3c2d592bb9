/* cudafilters: GPU video filters with exact CPU twins. Umbrella header. */
#ifndef CUDAFILTERS_H
#define CUDAFILTERS_H

#include "cpu.h"
#include "device.h"
#include "filter.h"
#include "format.h"
#include "frame.h"
#include "pool.h"
#include "scheduler.h"
#include "status.h"

#endif
