// The order in which OpenBLAS's sgemm sums a one-row product (issue 36, item 2; see
// docs/engine-speed.md, "A one-row product that sums as sgemm does"). Runs torch's call
// for linear, sgemm_("T", "N", N, M, K) with the bias as C (beta = 1; NOBIAS=1: beta = 0),
// on random values, then looks for the block size Q for which a sequential-FMA sum over
// K blocks (Q while at least 2Q remain, then two halves), added block by block, equals
// every output bit for bit. Prints each match, or how many outputs one unblocked sum gets.
//   gcc -O2 -mfma -o /tmp/sgemm_order_probe packaging/tools/sgemm_order_probe.c \
//       /usr/lib/x86_64-linux-gnu/openblas-openmp/libopenblas.so.0 -lm
//   OMP_NUM_THREADS=2 /tmp/sgemm_order_probe N K [M]   (OPENBLAS_CORETYPE=SkylakeX ...)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <stdint.h>
extern void sgemm_(const char*, const char*, const int*, const int*, const int*, const float*,
                   const float*, const int*, const float*, const int*, const float*, float*,
                   const int*);
static uint64_t s = 88172645463325252ull;
static float rnd(void) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return (float)((double)(s >> 11) / 9007199254740992.0 * 2 - 1); }
// y[i] = bias[i] + sum over blocks (sequential fma within block)
static void blocked(const float* W, const float* x, const float* bias, float* y, int N, int K,
                    const int* blocks, int nb)
{
    for (int i = 0; i < N; ++i) {
        float c = bias ? bias[i] : 0.0f;
        int k0 = 0;
        for (int b = 0; b < nb; ++b) {
            float acc = 0.0f;
            for (int k = k0; k < k0 + blocks[b]; ++k)
                acc = fmaf(W[(size_t)i * K + k], x[k], acc);
            c = bias || b > 0 ? c + acc : acc;
            k0 += blocks[b];
        }
        y[i] = c;
    }
}
int main(int argc, char** argv)
{
    const int N = atoi(argv[1]), K = atoi(argv[2]), M = argc > 3 ? atoi(argv[3]) : 1;
    float* W = malloc(sizeof(float) * N * K);
    float* x = malloc(sizeof(float) * K * M);
    float* bias = malloc(sizeof(float) * N);
    float* ref = malloc(sizeof(float) * N * M);
    float* y = malloc(sizeof(float) * N);
    for (size_t i = 0; i < (size_t)N * K; ++i) W[i] = rnd();
    for (int i = 0; i < K * M; ++i) x[i] = rnd();
    for (int i = 0; i < N; ++i) bias[i] = rnd();
    for (int j = 0; j < M; ++j) memcpy(ref + (size_t)j * N, bias, sizeof(float) * N);
    const float one = 1.0f, zero = 0.0f;
    const int nobias = getenv("NOBIAS") != NULL;
    if (nobias) bias = NULL;
    sgemm_("T", "N", &N, &M, &K, &one, W, &K, x, &K, nobias ? &zero : &one, ref, &N);
    // candidate: blocks of Q with the halving rule, rounded to unroll U
    int best = -1;
    for (int Q = 16; Q <= K; Q += 16)
        for (int U = 1; U <= 32; U *= 2)
            for (int rule = 0; rule < 2; ++rule) {
                int blocks[64], nb = 0, rem = K;
                while (rem > 0 && nb < 64) {
                    int l = rem;
                    if (l >= 2 * Q) l = Q;
                    else if (l > Q) l = rule == 0 ? ((l / 2 + U - 1) / U) * U : (l + 1) / 2;
                    blocks[nb++] = l;
                    rem -= l;
                }
                int ok = 1;
                for (int j = 0; j < M && ok; ++j) {
                    blocked(W, x + (size_t)j * K, bias, y, N, K, blocks, nb);
                    for (int i = 0; i < N; ++i)
                        if (memcmp(&y[i], &ref[(size_t)j * N + i], 4) != 0) { ok = 0; break; }
                }
                if (ok) {
                    printf("match: Q=%d U=%d rule=%d blocks:", Q, U, rule);
                    for (int b = 0; b < nb; ++b) printf(" %d", blocks[b]);
                    printf("\n");
                    best = Q;
                }
            }
    if (best < 0) {
        // how close is one block?
        int blocks[1] = {K};
        blocked(W, x, bias, y, N, K, blocks, 1);
        int same = 0;
        for (int i = 0; i < N; ++i) same += memcmp(&y[i], &ref[i], 4) == 0;
        printf("no match; one sequential block equals %d of %d\n", same, N);
    }
    return 0;
}
