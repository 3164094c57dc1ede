/*
 * sliding_bfs.c - plain single-threaded BFS baseline for the R x C
 * sliding-tile puzzle ("the simple approach").
 *
 *   usage: sliding_bfs R C        (R*C <= 12)
 *
 * Goal: tiles 1..n-1 in row-major order, blank last.  A state is the full
 * lexicographic rank of the n-cell permutation (blank counted as value 0)
 * over n! ranks.  Distances live in an unsigned char array of n! bytes
 * (255 = unvisited); the FIFO queue is a uint32 array of n!/2 ranks (only
 * half of the permutations are reachable).  Ranking and unranking are the
 * textbook O(n^2) algorithms; nothing is clever here on purpose.
 *
 * Output: one "distance states" line per BFS level, then "total N".
 *
 * Build: gcc -O2 -o sliding_bfs sliding_bfs.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXN 12 /* 12! = 479001600 fits in uint32 */

static uint64_t fact[MAXN + 1];

static uint32_t rank_perm(const uint8_t *p, int n)
{
    uint64_t r = 0;
    for (int i = 0; i < n; i++) {
        int smaller = 0;
        for (int j = i + 1; j < n; j++)
            if (p[j] < p[i])
                smaller++;
        r += (uint64_t)smaller * fact[n - 1 - i];
    }
    return (uint32_t)r;
}

static void unrank_perm(uint32_t r, uint8_t *p, int n)
{
    uint8_t used[MAXN] = {0};
    uint64_t rem = r;
    for (int i = 0; i < n; i++) {
        uint64_t f = fact[n - 1 - i];
        int d = (int)(rem / f);
        rem %= f;
        /* pick the d-th unused value */
        for (int v = 0; v < n; v++) {
            if (!used[v]) {
                if (d == 0) {
                    p[i] = (uint8_t)v;
                    used[v] = 1;
                    break;
                }
                d--;
            }
        }
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s R C   (2 <= R*C <= %d)\n", argv[0], MAXN);
        return 2;
    }
    int rows = atoi(argv[1]), cols = atoi(argv[2]);
    int n = rows * cols;
    if (rows < 1 || cols < 1 || n < 2 || n > MAXN) {
        fprintf(stderr, "R*C must be in 2..%d\n", MAXN);
        return 2;
    }
    fact[0] = 1;
    for (int i = 1; i <= MAXN; i++)
        fact[i] = fact[i - 1] * (uint64_t)i;
    uint64_t total_ranks = fact[n];
    uint64_t qcap = total_ranks / 2;

    unsigned char *dist = malloc(total_ranks);
    uint32_t *queue = malloc(qcap * sizeof *queue);
    if (!dist || !queue) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (uint64_t i = 0; i < total_ranks; i++)
        dist[i] = 255;

    uint8_t p[MAXN];
    for (int i = 0; i < n - 1; i++)
        p[i] = (uint8_t)(i + 1);
    p[n - 1] = 0;

    uint64_t counts[256] = {0};
    uint64_t head = 0, tail = 0;
    uint32_t start = rank_perm(p, n);
    dist[start] = 0;
    queue[tail++] = start;

    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    while (head < tail) {
        uint32_t r = queue[head++];
        unsigned d = dist[r];
        counts[d]++;
        unrank_perm(r, p, n);
        int b = 0;
        while (p[b] != 0)
            b++;
        int br = b / cols, bc = b % cols;
        for (int k = 0; k < 4; k++) {
            int nr = br + dr[k], nc = bc + dc[k];
            if (nr < 0 || nr >= rows || nc < 0 || nc >= cols)
                continue;
            int t = nr * cols + nc;
            p[b] = p[t];
            p[t] = 0;
            uint32_t q = rank_perm(p, n);
            p[t] = p[b];
            p[b] = 0;
            if (dist[q] == 255) {
                if (d + 1 >= 255) {
                    fprintf(stderr, "distance overflow\n");
                    return 1;
                }
                dist[q] = (unsigned char)(d + 1);
                if (tail >= qcap) {
                    fprintf(stderr, "queue overflow\n");
                    return 1;
                }
                queue[tail++] = q;
            }
        }
    }

    uint64_t total = 0;
    for (int d = 0; d < 256 && counts[d]; d++) {
        printf("%d %llu\n", d, (unsigned long long)counts[d]);
        total += counts[d];
    }
    printf("total %llu\n", (unsigned long long)total);
    free(queue);
    free(dist);
    return 0;
}
