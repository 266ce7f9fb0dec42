/* One BFS level, as in the PENCIL paper's Fig. 3 (Rodinia BFS): the
 * frontier test and the edge bounds depend on data, so the `if` is one
 * statement with may-writes; `independent` says the races on cost and
 * next_frontier are benign (every writer writes the same value). */
#include <pencil.h>
#include <stdio.h>

static void bfs_level(int n_nodes, int n_edges, int frontier[pencil_array n_nodes],
                      int next_frontier[pencil_array n_nodes],
                      const int visited[pencil_array n_nodes],
                      int cost[pencil_array n_nodes],
                      const int edge_idx[pencil_array n_nodes],
                      const int edge_cnt[pencil_array n_nodes],
                      const int dst_node_index[pencil_array n_edges])
{
#pragma pencil independent
  for (int i = 0; i < n_nodes; i++) {
    if (frontier[i] == 1) {
      frontier[i] = 0;
      for (int j = edge_idx[i]; j < edge_idx[i] + edge_cnt[i]; j++) {
        int dst_node = dst_node_index[j];
        if (visited[dst_node] == 0) {
          cost[dst_node] = cost[i] + 1;
          next_frontier[dst_node] = 1;
        }
      }
    }
  }
}

int main(void)
{
  enum { N = 2000, DEG = 4 };
  static int frontier[N], next[N], visited[N], cost[N], idx[N], cnt[N], dst[N * DEG];
  for (int i = 0; i < N; i++) {
    idx[i] = i * DEG;
    cnt[i] = 1 + i % DEG;
    for (int k = 0; k < DEG; k++)
      dst[i * DEG + k] = (i * 17 + k * 131 + 1) % N;
    cost[i] = -1;
  }
  frontier[0] = 1;
  visited[0] = 1;
  cost[0] = 0;
  int levels = 0, any = 1;
  while (any) {
    bfs_level(N, N * DEG, frontier, next, visited, cost, idx, cnt, dst);
    any = 0;
    for (int i = 0; i < N; i++) {
      if (next[i]) {
        frontier[i] = 1;
        visited[i] = 1;
        any = 1;
      }
      next[i] = 0;
    }
    levels++;
  }
  long check = 0, reached = 0;
  for (int i = 0; i < N; i++) {
    check += (long)cost[i] * (i % 97 + 1);
    reached += cost[i] >= 0;
  }
  printf("levels=%d reached=%ld check=%ld\n", levels, reached, check);
  return 0;
}
