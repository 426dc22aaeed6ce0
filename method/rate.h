/* rate.h -- the rate method: how hard a puzzle is for a person.
 *
 * rate_ops (method.h) runs the explain work (explain.h) without text or
 * pattern cells and keeps only the counts and the rating: the same choice
 * of plugins, the same solution check, codes and messages as explain.
 */
#ifndef SUDOKU_METHOD_RATE_H
#define SUDOKU_METHOD_RATE_H

#include <stdint.h>

#include "method/method.h"

extern const struct method_ops rate_ops;

/* What a rate call found, borrowed from it until method_end. */
struct rating {
    double rating;          /* the hardest step's */
    double ep, ed;          /* Sudoku Explainer's pearl and diamond, 0 when not rated */
    const char *difficulty; /* its band's name */
    const char *hardest;    /* the hardest step's technique, "" when none */
    uint32_t steps;         /* steps on the path */
    int is_logic;           /* 1: logic alone solved it; 0: stuck */
    const char *solver;     /* the explaining plugin's name */
    uint64_t elapsed_us;    /* time it took */
};

/* The result of a call of rate_ops whose outcome was RPC_OK. */
void rate_result(const struct method_call *call, struct rating *out);

#endif /* SUDOKU_METHOD_RATE_H */
