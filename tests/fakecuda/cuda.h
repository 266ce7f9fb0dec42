/*
 * fakecuda: CUDA's cuda.h is the driver API's header. PPCG's kernel
 * headers include it (`#include "cuda.h"`) and use only the runtime's
 * API, so here it stands for the runtime's header (scripts/ppcg-check.sh
 * builds PPCG's output against this directory).
 */
#ifndef FAKECUDA_CUDA_H
#define FAKECUDA_CUDA_H

#include "cuda_runtime.h"

#endif
