/* C's digraphs (`<: :>`, `<% %>`, `%:`), which the preprocessor keeps as
 * written, in and around the region. */
%:include <stdio.h>
%:define N 30
static void kernel(int n, float A<:N:><:N:>, float B<:N:>) <%
  int i, j;
%:pragma scop
  for (i = 0; i < n; i++) <%
    B<:i:> = 0;
    for (j = 0; j < n; j++)
      B<:i:> += A<:i:><:j:> * (j + 1);
  %>
%:pragma endscop
%>
int main(void) <%
  static float A<:N:><:N:>, B<:N:>;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A<:i:><:j:> = (i + 2 * j) % 5;
  kernel(N - 1, A, B);
  double s = 0;
  for (int i = 0; i < N; i++)
    s += B<:i:> * (i + 1);
  printf("%.6g %s\n", s, "<% kept %>");
  return 0;
%>
