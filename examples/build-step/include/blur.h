/* The image size of blur.c. */
#ifndef BLUR_H
#define BLUR_H
#define W 96
#define H 64
#endif
