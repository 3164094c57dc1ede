/*
 * coins_bfs.c - plain single-threaded BFS baseline for coin-flip puzzles
 * on an R x C grid: one byte per configuration over all 2^(R*C)
 * configurations, uint32 FIFO queue.
 *
 *   usage: coins_bfs nine-tails R C
 *          coins_bfs lights-out R C      (R*C <= 30)
 *
 * Cell i is row-major; bit i = 1 means the coin shows tails (T).
 * Pressing cell i flips i and its orthogonal neighbours: s ^ N(i).
 *
 * lights-out: undirected, goal all-heads (mask 0); BFS from the goal over
 *             every press.
 * nine-tails: a press is only allowed on a face-up (H, bit 0) coin; goal is
 *             all tails (all ones).  Distances are measured TO the goal, so
 *             we BFS from the goal over reverse moves: the predecessors of t
 *             are t ^ N(i) for every cell i that is T (bit 1) in t.
 *
 * Output: one "distance states" line per BFS level, then "total N".
 *
 * Build: gcc -O2 -o coins_bfs coins_bfs.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXCELLS 30

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s nine-tails|lights-out R C\n", argv[0]);
        return 2;
    }
    int nine;
    if (strcmp(argv[1], "nine-tails") == 0)
        nine = 1;
    else if (strcmp(argv[1], "lights-out") == 0)
        nine = 0;
    else {
        fprintf(stderr, "unknown puzzle '%s'\n", argv[1]);
        return 2;
    }
    int rows = atoi(argv[2]), cols = atoi(argv[3]);
    int n = rows * cols;
    if (rows < 1 || cols < 1 || n > MAXCELLS) {
        fprintf(stderr, "R*C must be in 1..%d\n", MAXCELLS);
        return 2;
    }

    uint32_t nb[MAXCELLS];
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            int i = r * cols + c;
            uint32_t m = 1u << i;
            if (r > 0)
                m |= 1u << (i - cols);
            if (r < rows - 1)
                m |= 1u << (i + cols);
            if (c > 0)
                m |= 1u << (i - 1);
            if (c < cols - 1)
                m |= 1u << (i + 1);
            nb[i] = m;
        }
    }

    uint64_t size = 1ull << n;
    unsigned char *dist = malloc(size);
    uint32_t *queue = malloc(size * sizeof *queue);
    if (!dist || !queue) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    memset(dist, 255, size);

    uint32_t goal = nine ? (uint32_t)(size - 1) : 0;
    uint64_t counts[256] = {0};
    uint64_t head = 0, tail = 0;
    dist[goal] = 0;
    queue[tail++] = goal;

    while (head < tail) {
        uint32_t t = queue[head++];
        unsigned d = dist[t];
        counts[d]++;
        for (int i = 0; i < n; i++) {
            if (nine && !((t >> i) & 1u))
                continue; /* reverse move needs cell i to be T in t */
            uint32_t s = t ^ nb[i];
            if (dist[s] == 255) {
                if (d + 1 >= 255) {
                    fprintf(stderr, "distance overflow\n");
                    return 1;
                }
                dist[s] = (unsigned char)(d + 1);
                queue[tail++] = s;
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
