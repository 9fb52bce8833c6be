/*
 * The value network's forward pass (scopone/solver/value_net.py, MTD(f)'s first
 * guess): two ReLU layers over inputs that are mostly 0.  The pure Python
 * ValueNet.predict_reference is the same computation, and the reference this is
 * tested against (tests/test_value_net.py).
 *
 * The sums are made in double precision in the reference's order (the first
 * layer's rows added input by input, each unit of the second layer summed over
 * the first layer's units in turn, then its bias), and the build is ISO C
 * (-std=c99), where gcc contracts no multiply-add: so each output is what the
 * reference computes, to the last bit where Python adds the same way (its sum()
 * of floats is plain addition up to 3.11, compensated from 3.12).
 *
 * It is not the search's hot path (one evaluation a solve), so it lives beside
 * the search without touching it; in C it takes microseconds where the Python
 * takes about 2.5 ms.
 */
#ifndef SCOPONE_NET_H
#define SCOPONE_NET_H

#include <stddef.h>

#define NET_MAX_H1 1024
#define NET_MAX_H2 256

/*
 * The output for one position.  w1: n_in x h1 (row-major, one row per input), b1:
 * h1, w2: h1 x h2, b2: h2, w3: h2, b3: the output's bias.  The inputs that are not 0:
 * the n_ones indices in ones (each input 1) and the n_rest (index, value) pairs of
 * rest_i, rest_v, every index already checked to be below n_in.  h1 <= NET_MAX_H1,
 * h2 <= NET_MAX_H2.
 */
static double net_forward(const float *w1, const float *b1, const float *w2, const float *b2, const float *w3,
                          double b3, size_t h1, size_t h2, const long *ones, size_t n_ones, const long *rest_i,
                          const double *rest_v, size_t n_rest) {
    double h[NET_MAX_H1], t[NET_MAX_H2];
    for (size_t j = 0; j < h1; j++) h[j] = b1[j];
    for (size_t k = 0; k < n_ones; k++) {
        const float *row = w1 + (size_t)ones[k] * h1;
        for (size_t j = 0; j < h1; j++) h[j] += row[j];
    }
    for (size_t k = 0; k < n_rest; k++) {
        double v = rest_v[k];
        if (v == 0.0) continue; /* as the reference: a 0 adds nothing */
        const float *row = w1 + (size_t)rest_i[k] * h1;
        for (size_t j = 0; j < h1; j++) h[j] += v * row[j];
    }
    /* the second layer row by row of the first's outputs: each of its sums keeps the
     * reference's order, and the h2 sums are independent, so they are made side by side */
    for (size_t j = 0; j < h2; j++) t[j] = 0.0;
    for (size_t i = 0; i < h1; i++) {
        double a = h[i] > 0 ? h[i] : 0.0;
        const float *row = w2 + i * h2;
        for (size_t j = 0; j < h2; j++) t[j] += a * row[j];
    }
    double out = b3;
    for (size_t j = 0; j < h2; j++) {
        double u = b2[j] + t[j];
        if (u > 0) out += u * w3[j];
    }
    return out;
}

#endif /* SCOPONE_NET_H */
