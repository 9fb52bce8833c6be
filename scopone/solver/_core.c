/*
 * The compiled search core of the double-dummy solver.
 *
 * Fail-soft alpha-beta over one deal of Scopone with a transposition table of
 * (lower, upper) bounds.  It computes exactly what scopone.solver.reference
 * computes; the Python wrapper is scopone/solver/core.py.
 *
 * Cards and masks use the Python layout: card = (rank - 1) * 4 + suit, suits
 * D C S B = 0 1 2 3, so the four cards of a rank are one nibble of a mask.
 * The capture rules are not re-derived here: the constructor receives the
 * CP-SAT patterns of scopone.captures (rank counts packed one nibble per rank)
 * and the rules switches, and expands patterns to card sets at search time.
 *
 * Values are always points(A) - points(B) at the end of the deal.  The table
 * stores values relative to the points that can no longer change (scope made
 * so far, categories already won), so positions that differ only in those
 * share an entry; its key is the location of every card still in play plus a
 * summary of team A's pile holding only what can still change the score.
 *
 * The parts, by job (one translation unit: this file includes them once):
 * solver.h (types, options), bits.h (tables, bit tricks), score.h (scoring,
 * what the piles decide), moves.h (generation, make/unmake, ordering),
 * bounds.h (quick sure bounds), table.h (the tables), node.h (what every
 * search node shares), lastround.h (the last round and the outcome table),
 * plain.h (the plain search of the last cards), search.h (the search with
 * the table above them), net.h (the value network's forward pass, MTD(f)'s
 * first guess: not the search's); this file is the CPython binding.
 */

#include "search.h"
#include "net.h"

/* ------------------------------------------------------------------ Python type */
/* the search runs without the GIL: refuse a Solver that is searching (another thread, a signal handler) */
static int refuse_if_busy(Solver *S) {
    if (!S->busy) return 0;
    PyErr_SetString(PyExc_RuntimeError, "compiled core: this Solver is busy with a search (in another thread or a signal handler)");
    return 1;
}

/* the statistics and the move-ordering memory back to a new Solver's (init and clear) */
static void reset_counts(Solver *S) {
    S->nodes = S->tt_hits = S->tt_stores = S->cuts = S->cut_first = S->bound_cuts = S->quasi_skips = S->at_hits = S->at_stores = S->etc_cuts = S->st_hits = S->hint_hits = S->shallow_orders = S->ot_hits = S->ot_moved = S->at_dom_hits = S->at_pen_hits = S->child_proven = 0;
    memset(S->by_left, 0, sizeof S->by_left);
    memset(S->all_nodes, 0, sizeof S->all_nodes);
    memset(S->all_moves, 0, sizeof S->all_moves);
    memset(S->all_hand, 0, sizeof S->all_hand);
    memset(S->late_cuts, 0, sizeof S->late_cuts);
    memset(S->vain, 0, sizeof S->vain);
    memset(S->vain_by_order, 0, sizeof S->vain_by_order);
    S->in_vain = 0;
    memset(S->history, 0, sizeof S->history);
    memset(S->killer, -1, sizeof S->killer);
}

static int Solver_init(Solver *S, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"patterns", "strict", "asso_piglia_tutto", "asso_scopa", "asso_takes_asso",
                             "primiera_sum", "re_bello", "napola", "quindici", "memory_mb", "use_tt", "options", NULL};
    PyObject *patterns;
    int strict, apt, asso_scopa, ata, psum, reb, nap, q15, use_tt = 1;
    long long options = OPT_DEFAULT;
    double memory_mb = 256;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Opppppppp|dpL", kwlist, &patterns, &strict, &apt,
                                     &asso_scopa, &ata, &psum, &reb, &nap, &q15, &memory_mb, &use_tt, &options))
        return -1;
    if (refuse_if_busy(S)) return -1;
#ifdef CORE_STANDARD
    /* the search reads these as constants (OPTS, RULE): anything else would be searched wrongly */
    if (strict != STANDARD_strict || apt != STANDARD_apt || asso_scopa != STANDARD_asso_scopa ||
        ata != STANDARD_asso_takes_asso || psum != STANDARD_prim_sum || reb != STANDARD_re_bello ||
        nap != STANDARD_napola || q15 != STANDARD_quindici || (options & OPT_ALL) != OPT_DEFAULT) {
        PyErr_SetString(PyExc_ValueError, "compiled core: the standard module searches only the standard rules "
                                          "(scientifico) with the default options");
        return -1;
    }
#endif
    PyObject *seq = PySequence_Fast(patterns, "patterns must be a sequence of 11 lists");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != 11) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "patterns must have 11 entries (index 0 unused)");
        return -1;
    }
    for (int v = 0; v < 11; v++) {
        PyObject *lst = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, v), "patterns[v] must be a sequence");
        if (!lst) { Py_DECREF(seq); return -1; }
        Py_ssize_t np = PySequence_Fast_GET_SIZE(lst);
        if (np > 128) {
            Py_DECREF(lst); Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "too many capture patterns for one value");
            return -1;
        }
        S->npat[v] = (int)np;
        for (Py_ssize_t i = 0; i < np; i++) {
            unsigned long long p = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(lst, i));
            if (PyErr_Occurred()) { Py_DECREF(lst); Py_DECREF(seq); return -1; }
            S->pat[v][i] = p;
        }
        Py_DECREF(lst);
    }
    /* the fit rows of value v, indexed by the table's ranks up to the highest any of its patterns
     * takes, one after another: 32 KB in all with the standard rules, where every value's
     * patterns take ranks below it (a row per set of all ten ranks took 176 KB, and its loads
     * missed the processor's caches) */
    memset(S->fit, 0, sizeof S->fit);
    unsigned at = 0;
    for (int v = 0; v < 11; v++) {
        unsigned pm[128], used = 0; /* the ranks each pattern takes, and all of them */
        for (int i = 0; i < S->npat[v]; i++) {
            pm[i] = 0;
            for (int r = 0; r < 10; r++)
                if ((S->pat[v][i] >> (4 * r)) & 15) pm[i] |= 1u << r;
            used |= pm[i];
        }
        unsigned mask = used ? (2u << (31 - __builtin_clz(used))) - 1 : 0;
        S->fit_at[v] = at;
        S->fit_mask[v] = mask;
        for (int i = 0; i < S->npat[v]; i++)
            for (unsigned t = pm[i]; t <= mask; t = (t + 1) | pm[i]) S->fit[at + t][i >> 6] |= 1ULL << (i & 63);
        at += mask + 1;
    }
    memset(S->fitnz, 0, sizeof S->fitnz);
    for (unsigned i = 0; i < at; i++)
        if (S->fit[i][0] | S->fit[i][1]) S->fitnz[i >> 6] |= 1ULL << (i & 63);
    Py_DECREF(seq);
    S->strict = strict; S->apt = apt; S->asso_scopa = asso_scopa; S->asso_takes_asso = ata;
    S->prim_sum = psum; S->re_bello = reb; S->napola = nap; S->quindici = q15;
    S->use_tt = use_tt; S->opts = options & OPT_ALL;
    S->small = !(options & OPT_SMALL) ? 0 : (options & OPT_DEEPTT) ? DEEPTT_MIN - 1 : SMALL_CARDS;
    if (memory_mb < 1) memory_mb = 1;
    S->tt_limit_bytes = (size_t)(memory_mb * 1048576.0);
    free_tables(S);
    if (!S->mstack) {
        S->mstack = (Move *)malloc(sizeof(Move) * MOVE_STACK);
        if (!S->mstack) { PyErr_NoMemory(); return -1; }
    }
    reset_counts(S);
    memset(S->dcache, 0, sizeof S->dcache);
    return 0;
}

static void Solver_dealloc(Solver *S) {
    free_tables(S);
    free(S->mstack);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

static PyObject *Solver_search(Solver *S, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"hand0", "hand1", "hand2", "hand3", "table", "pile_a", "pile_b", "scope_a", "scope_b",
                             "to_move", "last", "alpha", "beta", "limit", "seconds_left", NULL};
    unsigned long long h0, h1, h2, h3, table, pa, pb;
    int s0, s1, to_move, last, alpha, beta, limit;
    double remaining;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "KKKKKKKiiiiiiid", kwlist, &h0, &h1, &h2, &h3, &table, &pa, &pb,
                                     &s0, &s1, &to_move, &last, &alpha, &beta, &limit, &remaining))
        return NULL;
    if (refuse_if_busy(S)) return NULL;
    uint64_t all = h0 | h1 | h2 | h3 | table | pa | pb;
    if ((all & ~ALL40) || to_move < 0 || to_move > 3 || last < -1 || last > 1 || limit <= 0 ||
        limit > (1 << 24) || alpha < -limit || alpha >= beta || beta > limit) {
        PyErr_SetString(PyExc_ValueError, "compiled core: invalid position");
        return NULL;
    }
    S->hand[0] = h0; S->hand[1] = h1; S->hand[2] = h2; S->hand[3] = h3;
    S->table = table; S->pile[0] = pa; S->pile[1] = pb;
    S->scope[0] = s0; S->scope[1] = s1; S->to_move = to_move; S->last = last;
    S->inf = limit;
    S->cards_left = S->root_left = popc(h0) + popc(h1) + popc(h2) + popc(h3);
    S->z1 = S->z2 = 0;
    for (int seat = 0; seat < 4; seat++)
        for (uint64_t m = S->hand[seat]; m; m &= m - 1) {
            int c = __builtin_ctzll(m);
            S->z1 ^= Z1[c][seat]; S->z2 ^= Z2[c][seat];
        }
    for (uint64_t m = table; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        S->z1 ^= Z1[c][4]; S->z2 ^= Z2[c][4];
    }
    S->odd_totals = (popc(all) & 1) | (popc(all & DENARI_MASK) & 1) << 1;
    S->za = 0;
    for (int l = 0; l < 5; l++)
        for (uint64_t m = l < 4 ? S->hand[l] : table; m; m &= m - 1) S->za += ZA[__builtin_ctzll(m)][l];
    if (all != ALL40) {
        /* a position without every card: team B's pile no longer follows from the
         * cards in play and team A's pile, so the cards of the deal join the hashes
         * (no card enters or leaves the deal during a search) */
        S->z1 ^= mix64(all ^ 0x5CA1AB1EULL);
        S->z2 ^= mix64(all ^ 0xFACADEULL);
        S->za += mix64(all ^ 0xC0FFEEULL);
    }
    S->aborted = S->py_error = 0;
    S->root_keyed = 0;
    if (S->stop_requested) Py_RETURN_NONE;
    S->next_check = S->nodes + 100000;
    S->has_deadline = remaining >= 0;
    if (S->has_deadline) {
        if (remaining == 0) { Py_RETURN_NONE; }
        clock_gettime(CLOCK_MONOTONIC, &S->end);
        double secs = (double)S->end.tv_sec + S->end.tv_nsec * 1e-9 + remaining;
        S->end.tv_sec = (time_t)secs;
        S->end.tv_nsec = (long)((secs - (double)S->end.tv_sec) * 1e9);
    }
    if (S->use_tt && alloc_tt(S) < 0) return NULL;
    S->busy = 1;
    S->tstate = PyEval_SaveThread();
    int v = ab(S, 0, alpha, beta);
    PyEval_RestoreThread(S->tstate);
    S->busy = 0;
    if (S->py_error == 2)
        PyErr_SetString(PyExc_RuntimeError, "compiled core: too many legal moves in one position");
    if (S->py_error) return NULL;
    if (S->aborted) Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

static PyObject *Solver_stats(Solver *S, PyObject *noargs) {
    return Py_BuildValue("{s:s,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:i,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K}", "engine", "c",
                         "nodes", (unsigned long long)S->nodes,
                         "tt_hits", (unsigned long long)S->tt_hits,
                         "tt_entries", (unsigned long long)S->tt_entries,
                         "tt_stores", (unsigned long long)S->tt_stores,
                         /* a shared table: this Solver's share of it among those searching it (a reader
                          * has none), so that the shares add up */
                         "tt_memory_bytes", (unsigned long long)((S->shared ? (S->reader ? 0 : S->tt_bytes /
                                                                  (S->shared->refs - S->shared->readers))
                                                                            : S->tt_bytes) + S->tt2_bytes),
                         "partition_memory_bytes", (unsigned long long)S->at_bytes,
                         "small_memory_bytes", (unsigned long long)S->st_bytes,
                         "outcome_memory_bytes", (unsigned long long)S->ot_bytes,
                         "outcome_hits", (unsigned long long)S->ot_hits, "outcome_moved", (unsigned long long)S->ot_moved,
                         "options", S->opts, "cutoffs", (unsigned long long)S->cuts,
                         "first_move_cutoffs", (unsigned long long)S->cut_first,
                         "bound_cutoffs", (unsigned long long)S->bound_cuts,
                         "quasi_skips", (unsigned long long)S->quasi_skips,
                         "partition_hits", (unsigned long long)S->at_hits,
                         "partition_dominance_hits", (unsigned long long)S->at_dom_hits,
                         "partition_penalty_hits", (unsigned long long)S->at_pen_hits,
                         "etc_cuts", (unsigned long long)S->etc_cuts,
                         "partition_stores", (unsigned long long)S->at_stores, "small_hits", (unsigned long long)S->st_hits,
                         "hint_hits", (unsigned long long)S->hint_hits,
                         "shallow_orders", (unsigned long long)S->shallow_orders,
                         "children_proven", (unsigned long long)S->child_proven,
                         "in_vain", (unsigned long long)S->in_vain,
                         "in_vain_table_move", (unsigned long long)S->vain_by_order[0],
                         "in_vain_class_move", (unsigned long long)S->vain_by_order[1],
                         "in_vain_look", (unsigned long long)S->vain_by_order[2],
                         "in_vain_static", (unsigned long long)S->vain_by_order[3]);
}

static PyObject *Solver_profile(Solver *S, PyObject *noargs) {
    PyObject *out = PyList_New(41);
    for (int i = 0; i < 41 && out; i++) {
        PyObject *row = Py_BuildValue("{s:K,s:K,s:K,s:K,s:K,s:K}", "nodes", S->by_left[i],
                                      "all_nodes", S->all_nodes[i], "all_moves", S->all_moves[i],
                                      "all_hand", S->all_hand[i], "late_cuts", S->late_cuts[i],
                                      "in_vain", S->vain[i]);
        if (!row) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, row);
    }
    return out;
}

static PyObject *Solver_root_move(Solver *S, PyObject *noargs) {
    if (refuse_if_busy(S)) return NULL;
    /* the table's best move for the root of the last search, or None */
    if (!S->tt || !S->root_keyed) Py_RETURN_NONE;
    Entry got[2];
    uint64_t keys[2];
    int hit = probe(S, S->root_key, S->root_check, got, keys); /* cards_left is the root's again */
    if (hit < 0 || entry_move(got + hit) == NO_MOVE) Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(entry_move(got + hit));
}

static PyTypeObject SolverType;

static PyObject *Solver_share_table(Solver *S, PyObject *args, PyObject *kw) {
    /* search with one table together with `other` (its threads and ours at once) */
    static char *kwlist[] = {"other", "memory_mb", "reader", NULL};
    Solver *O;
    double memory_mb;
    int reader = 0; /* S will only read the table: it counts for none of its memory (stats) */
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!d|p", kwlist, &SolverType, &O, &memory_mb, &reader)) return NULL;
    if (refuse_if_busy(S) || refuse_if_busy(O)) return NULL;
    /* other == self: a table of memory_mb of its own that never grows, as a shared one (unless it has one) */
    /* the keys and values of the entries depend on the rules and the options */
    if (O->opts != S->opts || O->use_tt != S->use_tt || O->strict != S->strict || O->apt != S->apt ||
        O->asso_scopa != S->asso_scopa || O->asso_takes_asso != S->asso_takes_asso ||
        O->prim_sum != S->prim_sum || O->re_bello != S->re_bello || O->napola != S->napola ||
        O->quindici != S->quindici || memcmp(O->npat, S->npat, sizeof S->npat) ||
        memcmp(O->pat, S->pat, sizeof S->pat)) {
        PyErr_SetString(PyExc_ValueError, "compiled core: a table is shared only by Solvers of the same rules and options");
        return NULL;
    }
    if (!S->use_tt) Py_RETURN_NONE;
    if (!O->shared) {
        if (memory_mb < 1) memory_mb = 1;
        SharedTable *t = shared_new((size_t)(memory_mb * 1048576.0));
        if (!t) return PyErr_NoMemory();
        use_shared(O, t);
        shared_release(t); /* O holds it now */
    }
    if (S->shared != O->shared) use_shared(S, O->shared);
    if (reader && !S->reader && S != O) {
        S->reader = 1;
        S->shared->readers++;
    }
    Py_RETURN_NONE;
}

static PyObject *Solver_shares_table(Solver *S, PyObject *noargs) {
    return PyBool_FromLong(S->shared != NULL && S->shared->refs - S->shared->readers > 1);
}

static PyObject *Solver_stop(Solver *S, PyObject *args) {
    /* callable while another thread searches (it only sets a flag): the search
     * notices at its next interrupt check (every 100,000 nodes) */
    int flag = 1;
    if (!PyArg_ParseTuple(args, "|p", &flag)) return NULL;
    S->stop_requested = flag;
    Py_RETURN_NONE;
}

static PyObject *Solver_clear(Solver *S, PyObject *noargs) {
    if (refuse_if_busy(S)) return NULL;
    free_tables(S);
    reset_counts(S);
    Py_RETURN_NONE;
}

static PyObject *Solver_legal_moves(Solver *S, PyObject *args) {
    /* the legal moves as ints, without equivalence pruning (for tests) */
    unsigned long long h, table;
    if (!PyArg_ParseTuple(args, "KK", &h, &table)) return NULL;
    if (refuse_if_busy(S)) return NULL;
    uint64_t save_h = S->hand[0], save_t = S->table;
    int save_m = S->to_move;
    S->hand[0] = h; S->table = table; S->to_move = 0;
    Move *buf = (Move *)malloc(sizeof(Move) * (MOVE_STACK / 2 + 8));
    if (!buf) return PyErr_NoMemory();
    int n = gen_moves(S, buf, 0);
    S->hand[0] = save_h; S->table = save_t; S->to_move = save_m;
    if (n < 0) { free(buf); PyErr_SetString(PyExc_RuntimeError, "too many moves"); return NULL; }
    PyObject *out = PyList_New(n);
    for (int i = 0; i < n && out; i++)
        PyList_SET_ITEM(out, i, PyLong_FromUnsignedLongLong((uint64_t)buf[i].card | buf[i].cap << 6));
    free(buf);
    return out;
}

static PyObject *Solver_table_entries(Solver *S, PyObject *args, PyObject *kw) {
    /* the biggest proofs of the table as bytes, for a checkpoint (see table_dump) */
    static char *kwlist[] = {"max_entries", NULL};
    Py_ssize_t max;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "n", kwlist, &max)) return NULL;
    if (refuse_if_busy(S)) return NULL;
    if (max < 0 || !S->tt) max = 0;
    if ((size_t)max > S->tt_mask + 1) max = (Py_ssize_t)(S->tt_mask + 1); /* no more records than slots */
    uint64_t *buf = (uint64_t *)malloc(((size_t)max + 1) * 4 * sizeof(uint64_t));
    if (!buf) return PyErr_NoMemory();
    size_t n;
    S->busy = 1; /* the scan of a big table takes seconds: no search of this Solver meanwhile */
    Py_BEGIN_ALLOW_THREADS
    n = table_dump(S, buf, (size_t)max);
    Py_END_ALLOW_THREADS
    S->busy = 0;
    PyObject *out = PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)(n * 4 * sizeof(uint64_t)));
    free(buf);
    return out;
}

static PyObject *Solver_load_table_entries(Solver *S, PyObject *args, PyObject *kw) {
    /* put table_entries' bytes back into the table (made now if there is none); returns the count stored */
    static char *kwlist[] = {"data", NULL};
    Py_buffer b;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "y*", kwlist, &b)) return NULL;
    if (refuse_if_busy(S)) { PyBuffer_Release(&b); return NULL; }
    if (b.len % (4 * sizeof(uint64_t))) {
        PyBuffer_Release(&b);
        PyErr_SetString(PyExc_ValueError, "compiled core: table entries come in records of 32 bytes");
        return NULL;
    }
    if (!S->use_tt) { PyBuffer_Release(&b); return PyLong_FromLong(0); }
    if (alloc_tt(S) < 0) { PyBuffer_Release(&b); return NULL; }
    size_t n = (size_t)b.len / (4 * sizeof(uint64_t)), stored;
    uint64_t *rec = (uint64_t *)b.buf, *copy = NULL;
    if ((uintptr_t)rec % sizeof(uint64_t)) { /* a slice of a buffer may start anywhere */
        copy = rec = (uint64_t *)malloc((size_t)b.len + 1);
        if (!rec) { PyBuffer_Release(&b); return PyErr_NoMemory(); }
        memcpy(rec, b.buf, (size_t)b.len);
    }
    /* into a shared table other Solvers may be searching: safe, as for their own writes
     * (a slot read while it is written is a miss) */
    stored = table_load(S, rec, n);
    free(copy);
    PyBuffer_Release(&b);
    return PyLong_FromSize_t(stored);
}

static PyMethodDef Solver_methods[] = {
    {"search", (PyCFunction)(void (*)(void))Solver_search, METH_VARARGS | METH_KEYWORDS,
     "search(hand0, hand1, hand2, hand3, table, pile_a, pile_b, scope_a, scope_b, to_move, last, alpha, beta, "
     "limit, seconds_left) -> int, or None when interrupted (cards as 40-bit masks; last: the last capturing "
     "team or -1; every value lies in (-limit, limit); seconds_left < 0: no limit)"},
    {"stats", (PyCFunction)Solver_stats, METH_NOARGS, "counters (cumulative)"},
    {"profile", (PyCFunction)Solver_profile, METH_NOARGS,
     "per number of cards left in the hands (list index): nodes, and for the table-searched nodes "
     "that had no cut-off, their count, moves searched and the mover's cards (cumulative)"},
    {"clear", (PyCFunction)Solver_clear, METH_NOARGS, "forget the table and counters"},
    {"share_table", (PyCFunction)(void (*)(void))Solver_share_table, METH_VARARGS | METH_KEYWORDS,
     "share_table(other, memory_mb): search with other's table, one both (and any other Solver sharing it) "
     "read and write while they search at once; a new shared table of memory_mb if other has none yet. "
     "The table keeps its size: it never grows. With other the Solver itself: such a table of its own"},
    {"shares_table", (PyCFunction)Solver_shares_table, METH_NOARGS,
     "whether another Solver searches with this one's table"},
    {"stop", (PyCFunction)Solver_stop, METH_VARARGS,
     "stop(flag=True): searches (running or later) return None until stop(False); thread-safe"},
    {"root_move", (PyCFunction)Solver_root_move, METH_NOARGS,
     "the table's best move (card | captured << 6) for the root of the last search, or None"},
    {"legal_moves", (PyCFunction)Solver_legal_moves, METH_VARARGS,
     "legal_moves(hand, table) -> list of card | captured << 6"},
    {"table_entries", (PyCFunction)(void (*)(void))Solver_table_entries, METH_VARARGS | METH_KEYWORDS,
     "table_entries(max_entries) -> bytes: the entries of the biggest subtrees, at most max_entries records "
     "of 32 bytes (a shared table never moves, so other Solvers may search it meanwhile)"},
    {"load_table_entries", (PyCFunction)(void (*)(void))Solver_load_table_entries, METH_VARARGS | METH_KEYWORDS,
     "load_table_entries(data) -> int: store table_entries' records (of a Solver of the same build, rules and "
     "options) in this table; the number stored"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "scopone.solver._core.Solver",
    .tp_basicsize = sizeof(Solver),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Alpha-beta search of Scopone deals with a transposition table.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Solver_init,
    .tp_dealloc = (destructor)Solver_dealloc,
    .tp_methods = Solver_methods,
};

/*
 * setup.py builds this file more than once: the portable module _core; on
 * x86-64, with -march=CORE_ISA, a second module for processors that have that
 * level (CORE_NAME names it); and the standard module (CORE_STANDARD, named
 * CORE_STANDARD_MODULE), built for CORE_STANDARD_ISA (x86-64-v3 on x86-64).
 * scopone/solver/core.py imports the level's module where CPU_LEVEL_OK of the
 * first says the processor runs it, and the standard one for the standard
 * rules with the default options where STANDARD_CPU_OK says the processor runs
 * it.  The names come from setup.py.
 */
#ifndef CORE_NAME
#define CORE_NAME _core
#endif
#ifndef CORE_ISA
#define CORE_ISA "portable"
#endif
#if !defined(CORE_LEVEL) || !defined(CORE_LEVEL_MODULE) || !defined(CORE_STANDARD_MODULE) || !defined(CORE_STANDARD_ISA)
#error "CORE_LEVEL, CORE_LEVEL_MODULE, CORE_STANDARD_MODULE and CORE_STANDARD_ISA: setup.py defines them"
#endif
#ifdef CORE_STANDARD
#define CORE_IS_STANDARD 1
#else
#define CORE_IS_STANDARD 0
#endif
#define CORE_STR_(x) #x
#define CORE_STR(x) CORE_STR_(x)
#define CORE_INIT_(name) PyInit_##name
#define CORE_INIT(name) CORE_INIT_(name)

/* whether this processor runs code built for CORE_LEVEL */
static int cpu_level_ok(void) {
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
    __builtin_cpu_init();
    return __builtin_cpu_supports(CORE_LEVEL) != 0;
#else
    return 0;
#endif
}

/* whether this processor runs the standard module: built as this module was (the same
 * CORE_ISA, which runs here), or for a named level it has (CORE_STANDARD_CHECK) */
static int cpu_standard_ok(void) {
    if (!strcmp(CORE_ISA, CORE_STANDARD_ISA)) return 1;
#if defined(CORE_STANDARD_CHECK) && (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && \
    !defined(__clang__) && __GNUC__ >= 12
    __builtin_cpu_init();
    return __builtin_cpu_supports(CORE_STANDARD_ISA) != 0;
#else
    return 0;
#endif
}

/* ------------------------------------------------------------------ the value network */
/* a float32 buffer's numbers, or -1 with an error naming it */
static Py_ssize_t net_floats(Py_buffer *b, const char *name) {
    if (b->len % (Py_ssize_t)sizeof(float)) {
        PyErr_Format(PyExc_ValueError, "net_forward: %s holds %zd bytes, not a whole number of float32", name, b->len);
        return -1;
    }
    return b->len / (Py_ssize_t)sizeof(float);
}

static PyObject *core_net_forward(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"w1", "b1", "w2", "b2", "w3", "b3", "ones", "rest", NULL};
    Py_buffer buf[6];
    PyObject *ones_obj, *rest_obj, *ones = NULL, *rest = NULL, *result = NULL;
    long *idx = NULL;
    double *val = NULL;
    (void)self;
    memset(buf, 0, sizeof buf);
    if (!PyArg_ParseTupleAndKeywords(args, kw, "y*y*y*y*y*y*OO:net_forward", names, &buf[0], &buf[1], &buf[2],
                                     &buf[3], &buf[4], &buf[5], &ones_obj, &rest_obj))
        return NULL;
    static const char *bnames[] = {"w1", "b1", "w2", "b2", "w3", "b3"};
    Py_ssize_t n[6];
    for (int i = 0; i < 6; i++)
        if ((n[i] = net_floats(&buf[i], bnames[i])) < 0) goto done;
    Py_ssize_t h1 = n[1], h2 = n[3];
    if (h1 < 1 || h1 > NET_MAX_H1 || h2 < 1 || h2 > NET_MAX_H2 || n[0] % h1 || n[2] != h1 * h2 || n[4] != h2 ||
        n[5] != 1) {
        PyErr_Format(PyExc_ValueError, "net_forward: the layers' sizes do not fit (w1 %zd, b1 %zd, w2 %zd, b2 %zd, "
                     "w3 %zd, b3 %zd numbers; at most %d and %d units)", n[0], n[1], n[2], n[3], n[4], n[5],
                     NET_MAX_H1, NET_MAX_H2);
        goto done;
    }
    Py_ssize_t n_in = n[0] / h1;
    if (!(ones = PySequence_Fast(ones_obj, "net_forward: ones must be a sequence of input indices")) ||
        !(rest = PySequence_Fast(rest_obj, "net_forward: rest must be a sequence of (index, value) pairs")))
        goto done;
    Py_ssize_t n_ones = PySequence_Fast_GET_SIZE(ones), n_rest = PySequence_Fast_GET_SIZE(rest);
    idx = (long *)malloc(sizeof(long) * (size_t)(n_ones + n_rest + 1));
    val = (double *)malloc(sizeof(double) * (size_t)(n_rest + 1));
    if (!idx || !val) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t k = 0; k < n_ones + n_rest; k++) {
        PyObject *item = k < n_ones ? PySequence_Fast_GET_ITEM(ones, k) : NULL, *pair = NULL;
        if (!item) {
            pair = PySequence_Fast_GET_ITEM(rest, k - n_ones);
            if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
                PyErr_SetString(PyExc_TypeError, "net_forward: rest must be a sequence of (index, value) pairs");
                goto done;
            }
            item = PyTuple_GET_ITEM(pair, 0);
            val[k - n_ones] = PyFloat_AsDouble(PyTuple_GET_ITEM(pair, 1));
            if (PyErr_Occurred()) goto done;
        }
        idx[k] = PyLong_AsLong(item);
        if (idx[k] == -1 && PyErr_Occurred()) goto done;
        if (idx[k] < 0 || idx[k] >= n_in) {
            PyErr_Format(PyExc_ValueError, "net_forward: input %ld is not one of the %zd inputs", idx[k], n_in);
            goto done;
        }
    }
    const float *b3 = (const float *)buf[5].buf;
    double out = net_forward((const float *)buf[0].buf, (const float *)buf[1].buf, (const float *)buf[2].buf,
                             (const float *)buf[3].buf, (const float *)buf[4].buf, (double)b3[0], (size_t)h1,
                             (size_t)h2, idx, (size_t)n_ones, idx + n_ones, val, (size_t)n_rest);
    result = PyFloat_FromDouble(out);
done:
    free(idx);
    free(val);
    Py_XDECREF(ones);
    Py_XDECREF(rest);
    for (int i = 0; i < 6; i++)
        if (buf[i].obj) PyBuffer_Release(&buf[i]);
    return result;
}

static PyMethodDef core_functions[] = {
    {"net_forward", (PyCFunction)(void (*)(void))core_net_forward, METH_VARARGS | METH_KEYWORDS,
     "net_forward(w1, b1, w2, b2, w3, b3, ones, rest) -> float: the value network's output (value_net.ValueNet; "
     "the weights as float32 buffers, ones the inputs that are 1, rest the (index, value) of the others not 0)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef coremodule = {
    PyModuleDef_HEAD_INIT, CORE_STR(CORE_NAME), "Compiled search core of the Scopone solver.", -1, core_functions,
};

PyMODINIT_FUNC CORE_INIT(CORE_NAME)(void) {
    init_tables();
    if (PyType_Ready(&SolverType) < 0) return NULL;
    PyObject *m = PyModule_Create(&coremodule);
    if (!m) return NULL;
    Py_INCREF(&SolverType);
    if (PyModule_AddObject(m, "Solver", (PyObject *)&SolverType) < 0) {
        Py_DECREF(&SolverType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "OPT_ORDER", OPT_ORDER);
    PyModule_AddIntConstant(m, "OPT_EQUIV", OPT_EQUIV);
    PyModule_AddIntConstant(m, "OPT_BOUNDS", OPT_BOUNDS);
    PyModule_AddIntConstant(m, "OPT_SUMMARY", OPT_SUMMARY);
    PyModule_AddIntConstant(m, "OPT_HISTORY", OPT_HISTORY);
    PyModule_AddIntConstant(m, "OPT_SMALL", OPT_SMALL);
    PyModule_AddIntConstant(m, "OPT_KILLER", OPT_KILLER);
    PyModule_AddIntConstant(m, "OPT_TIGHT", OPT_TIGHT);
    PyModule_AddIntConstant(m, "OPT_SMALLBOUNDS", OPT_SMALLBOUNDS);
    PyModule_AddIntConstant(m, "OPT_LAST", OPT_LAST);
    PyModule_AddIntConstant(m, "OPT_RANGE", OPT_RANGE);
    PyModule_AddIntConstant(m, "OPT_SMALLEQUIV", OPT_SMALLEQUIV);
    PyModule_AddIntConstant(m, "OPT_DEEPTT", OPT_DEEPTT);
    PyModule_AddIntConstant(m, "OPT_ORDER2", OPT_ORDER2);
    PyModule_AddIntConstant(m, "OPT_CANON", OPT_CANON);
    PyModule_AddIntConstant(m, "OPT_NOSCOPA", OPT_NOSCOPA);
    PyModule_AddIntConstant(m, "OPT_DOMINANCE", OPT_DOMINANCE);
    PyModule_AddIntConstant(m, "OPT_ABDADA", OPT_ABDADA);
    PyModule_AddIntConstant(m, "OPT_QUASI", OPT_QUASI);
    PyModule_AddIntConstant(m, "OPT_PARTITION", OPT_PARTITION);
    PyModule_AddIntConstant(m, "OPT_ETC", OPT_ETC);
    PyModule_AddIntConstant(m, "OPT_PDENARI", OPT_PDENARI);
    PyModule_AddIntConstant(m, "OPT_PPILES", OPT_PPILES);
    PyModule_AddIntConstant(m, "OPT_PDOM", OPT_PDOM);
    PyModule_AddIntConstant(m, "OPT_SMALLTT", OPT_SMALLTT);
    PyModule_AddIntConstant(m, "OPT_HINT", OPT_HINT);
    PyModule_AddIntConstant(m, "OPT_SHALLOW", OPT_SHALLOW);
    PyModule_AddIntConstant(m, "OPT_ROOTSIZE", OPT_ROOTSIZE);
    PyModule_AddIntConstant(m, "OPT_CHILDREN", OPT_CHILDREN);
    PyModule_AddIntConstant(m, "OPT_OUTCOMES", OPT_OUTCOMES);
    PyModule_AddIntConstant(m, "OPT_ORANKS", OPT_ORANKS);
    PyModule_AddIntConstant(m, "OPT_ALL", OPT_ALL);
    PyModule_AddIntConstant(m, "OPT_DEFAULT", OPT_DEFAULT);
    PyModule_AddStringConstant(m, "ISA", CORE_ISA);
    PyModule_AddStringConstant(m, "CPU_LEVEL", CORE_LEVEL);
    PyModule_AddStringConstant(m, "LEVEL_MODULE", CORE_LEVEL_MODULE);
    PyModule_AddStringConstant(m, "STANDARD_MODULE", CORE_STANDARD_MODULE);
    PyModule_AddStringConstant(m, "STANDARD_ISA", CORE_STANDARD_ISA);
    PyModule_AddIntConstant(m, "STANDARD_CPU_OK", cpu_standard_ok());
    PyModule_AddIntConstant(m, "STANDARD", CORE_IS_STANDARD);
    PyModule_AddIntConstant(m, "CPU_LEVEL_OK", cpu_level_ok());
    return m;
}
