/* Includes included_deep.h, whose region is thus not the input's. */
#include "included_deep.h"
