/* Sizes of saxpy.c. Only saxpy.c includes this file: editing it must
 * make the build rerun pencilc on saxpy.c and on nothing else. */
#ifndef PARAMS_H
#define PARAMS_H
#define N 4096
#define SCALE 3.0f
#endif
