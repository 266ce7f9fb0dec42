#!/usr/bin/env bash
# Checks pencil-headers/ in both of its modes (see pencil-headers/pencil.h).
#   1. plain C: selftest.c builds warning-free with -std=c99 -Wall -Wextra
#      -pedantic and its run confirms the math builtins' values;
#   2. __PENCIL__: the preprocessed selftest keeps every builtin as a call
#      (what pencilc must see), and is still valid C;
#   3. every function pencil_prototypes.h declares for pencilc exists in
#      plain C with the same type (compiled, linked and address-taken).
# Usage: scripts/check-headers.sh   (needs gcc; CC overrides it)
set -euo pipefail
cd "$(dirname "$0")/.."

CC=${CC:-gcc}
H=pencil-headers
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. plain C
"$CC" -std=c99 -Wall -Wextra -pedantic -Werror -I "$H" "$H/selftest.c" \
  -o "$tmp/selftest" -lm
"$tmp/selftest" >/dev/null

# 2. __PENCIL__ mode: builtins survive preprocessing as plain calls
"$CC" -std=c99 -D__PENCIL__ -E -P -I "$H" "$H/selftest.c" >"$tmp/pencil.i"
for want in \
  '__pencil_use(in[i][j][k]);' \
  '__pencil_def(in[i][j][k]);' \
  '__pencil_use(d);' \
  'if (__pencil_maybe()) __pencil_def(d[i].real);' \
  'if (__pencil_maybe) {' \
  '__pencil_assume(n > 0);' \
  '__pencil_assume(m > 0);' \
  '__pencil_kill(A);' \
  '__pencil_kill(A, B);' \
  '__pencil_assert(n > 0);' \
  '__pencil_npr_mem_tag(A, 4);' \
  '__pencil_npr_mem_tag(B, 3);' \
  '__attribute__((pencil_access(summary_fft32)))' \
  '__attribute__((pencil_access(foo_summary)))' \
  '__attribute__((pencil))' \
  'float in[static const restrict n][n][n]' \
  '#pragma pencil independent' \
  '#pragma pencil ivdep' \
  'fclampf((float)(i + j), 0.0f, 10.0f)' \
  'mixf(A[i][j], 1.0f, 0.5f)'
do
  if ! grep -qF -- "$want" "$tmp/pencil.i"; then
    echo "check-headers: __PENCIL__ output lacks: $want" >&2
    exit 1
  fi
done
if grep -q 'sizeof(__pencil_unevaluated' "$tmp/pencil.i"; then
  echo "check-headers: plain-C builtin definitions leaked into __PENCIL__ mode" >&2
  exit 1
fi
# valid C once the standard types that pencilc treats as primitives exist
"$CC" -std=c99 -fsyntax-only -Wno-attributes -Wno-unknown-pragmas \
  -include stdbool.h -include stdint.h -include stddef.h -x c "$tmp/pencil.i"

# 3. every prototype pencilc sees has a plain-C implementation
printf '#include <pencil.h>\n' >"$tmp/empty.c"
"$CC" -std=c99 -D__PENCIL__ -E -P -I "$H" "$tmp/empty.c" |
  tr ';' '\n' | sed 's/__attribute__((const))//' |
  grep -E '\(' | grep -vE '__pencil_(use|def|kill|maybe|assume|assert)\b' \
  >"$tmp/protos"
sed -nE 's/^[^(]*[^A-Za-z0-9_]([A-Za-z_][A-Za-z0-9_]*) *\(.*/\1/p' \
  "$tmp/protos" >"$tmp/names"
n=$(wc -l <"$tmp/names")
if [ "$n" -lt 100 ]; then
  echo "check-headers: found only $n prototypes; extraction broken?" >&2
  exit 1
fi
{
  printf '#include <pencil.h>\n'
  # redeclaring with the __PENCIL__ prototype: gcc rejects a type mismatch
  sed 's/$/;/' "$tmp/protos"
  printf 'void *pencil_builtins[] = {\n'
  sed 's/.*/  (void *)\&&,/' "$tmp/names"
  printf '};\nint main(void) { return pencil_builtins[0] == 0; }\n'
} >"$tmp/consistency.c"
"$CC" -std=gnu99 -Wall -Werror -I "$H" "$tmp/consistency.c" \
  -o "$tmp/consistency" -lm
"$tmp/consistency"

echo "pencil headers: ok ($n builtin prototypes checked)"
