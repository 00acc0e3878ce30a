/* The AI's hot kernels in C: the rules of thumb, open-hand playouts and the
 * exact solver, the same algorithms as engine/ai/fast.py and engine/ai/solver.py
 * line for line (same cards chosen, same values, same nodes counted), on masks
 * of up to 128 cards.
 *
 * Why C (issue 33): a hard decision spends about nine tenths of its time in
 * these three (cProfile of 24 bench positions: the solver 56%, the policy and
 * the playouts 32%), and pure Python had already been taken as far as it goes
 * (issue 37 measured every split of them).  The pure-Python kernels stay the
 * reference and the fallback: this module is built by pip where a C compiler
 * is found (setup.py marks it optional), engine/ai/native.py uses it when it
 * imports and TAROCCHI_PURE_AI is not set, and tests/test_native_kernel.py
 * checks that both give the same answers on the same seeds.
 *
 * The rules are not re-implemented here from the text: every table (suits,
 * strength, the cards that beat a card, points, the seats and sides, the
 * scoring terms) comes from the ruleset through engine/ai/native.py, and the
 * legal-card rule below mirrors rulebook._make_legal_mask, checked against it
 * by the tests on random hands of both games.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <limits.h>

typedef unsigned __int128 u128;

#define MAXC 128
#define MAXS 4
#define NO_SUIT (-1)
#define TRUMP_SUIT 4
#define INF_V 10000
#define CHECK_MASK 511

/* --- bits ----------------------------------------------------------------- */

static inline int low_bit(u128 m) { /* m != 0 */
    uint64_t lo = (uint64_t)m;
    if (lo) return __builtin_ctzll(lo);
    return 64 + __builtin_ctzll((uint64_t)(m >> 64));
}

static inline int high_bit(u128 m) { /* m != 0 */
    uint64_t hi = (uint64_t)(m >> 64);
    if (hi) return 127 - __builtin_clzll(hi);
    return 63 - __builtin_clzll((uint64_t)m);
}

static inline int popcount(u128 m) {
    return __builtin_popcountll((uint64_t)m) + __builtin_popcountll((uint64_t)(m >> 64));
}

#define BIT(c) (((u128)1) << (c))

static PyObject *py_64, *py_zero, *py_mask_end, *py_monotonic;

static int to_mask(PyObject *o, u128 *out) {
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "a card mask must be an int");
        return -1;
    }
    int neg = PyObject_RichCompareBool(o, py_zero, Py_LT);
    int big = neg ? 0 : PyObject_RichCompareBool(o, py_mask_end, Py_GE);
    if (neg < 0 || big < 0) return -1;
    if (neg || big) {
        PyErr_SetString(PyExc_ValueError, "a card mask is 0 to 2**128 - 1");
        return -1;
    }
    unsigned long long lo = PyLong_AsUnsignedLongLongMask(o);
    if (lo == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    PyObject *h = PyNumber_Rshift(o, py_64);
    if (!h) return -1;
    unsigned long long hi = PyLong_AsUnsignedLongLongMask(h);
    Py_DECREF(h);
    if (hi == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = ((u128)hi << 64) | lo;
    return 0;
}

static PyObject *from_mask(u128 m) {
    uint64_t hi = (uint64_t)(m >> 64);
    if (!hi) return PyLong_FromUnsignedLongLong((uint64_t)m);
    PyObject *h = PyLong_FromUnsignedLongLong(hi);
    if (!h) return NULL;
    PyObject *s = PyNumber_Lshift(h, py_64);
    Py_DECREF(h);
    if (!s) return NULL;
    PyObject *l = PyLong_FromUnsignedLongLong((uint64_t)m);
    if (!l) { Py_DECREF(s); return NULL; }
    PyObject *r = PyNumber_Or(s, l);
    Py_DECREF(s);
    Py_DECREF(l);
    return r;
}

static int seq_ints(PyObject *seq, int *out, Py_ssize_t max, Py_ssize_t *n, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (!f) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(f);
    if (k > max) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "%s: %zd entries, at most %zd", what, k, max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        if (i >= PySequence_Fast_GET_SIZE(f)) break; /* a list shrunk under us */
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(f); return -1; }
        if (v < -1000000 || v > 1000000) {
            Py_DECREF(f);
            PyErr_Format(PyExc_ValueError, "%s: %ld is out of range", what, v);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(f);
    if (n) *n = k;
    return 0;
}

static int seq_masks(PyObject *seq, u128 *out, Py_ssize_t max, Py_ssize_t *n, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (!f) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(f);
    if (k > max) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "%s: %zd entries, at most %zd", what, k, max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        if (i >= PySequence_Fast_GET_SIZE(f)) { k = i; break; } /* a list shrunk under us */
        if (to_mask(PySequence_Fast_GET_ITEM(f, i), &out[i]) < 0) { Py_DECREF(f); return -1; }
    }
    Py_DECREF(f);
    if (n) *n = k;
    return 0;
}

/* --- the tables of one ruleset --------------------------------------------- */

typedef struct {
    PyObject_HEAD
    int n_seats, n_cards, n_trumps, matto;
    int side[MAXS], nxt[MAXS], partner[MAXS];
    int suit[MAXC], points[MAXC], strength[MAXC], rank[MAXC], keep[MAXC];
    u128 higher[MAXC];
    u128 suit_mask[5];
    u128 trump_mask, matto_mask;
    int trick_adj, matto_adj, matto_pts, surrender, total;
    int later_opps[MAXS][MAXS][MAXS];
    int n_later_opps[MAXS][MAXS];
    int partner_later[MAXS][MAXS];
    PyObject *out_of_time;
    int ready;
} Tables;

static PyTypeObject TablesType;
static PyTypeObject PolicyType;
static PyTypeObject SolverType;

static inline u128 legal_mask(const Tables *t, u128 hand, int led) {
    /* rulebook._make_legal_mask: the suit, else a trump, else anything; the Matto always */
    if (led < 0) return hand;
    u128 m = hand & t->suit_mask[led];
    if (m) return m | (hand & t->matto_mask);
    m = hand & t->trump_mask;
    if (m) return m | (hand & t->matto_mask);
    return hand;
}

static int mask_points(const Tables *t, u128 m) {
    int s = 0;
    while (m) {
        int c = low_bit(m);
        m &= m - 1;
        s += t->points[c];
    }
    return s;
}

/* Every value the kernels index with, in range (the tables come from a ruleset;
   this keeps a wrong one from reading past an array). */
static int check_tables(const Tables *t) {
    const char *bad = NULL;
    for (int s = 0; s < t->n_seats && !bad; s++) {
        if (t->side[s] < 0 || t->side[s] >= t->n_seats) bad = "side";
        if (t->partner[s] < -1 || t->partner[s] >= t->n_seats) bad = "partner";
        for (int i = 0; i < t->n_seats && !bad; i++) {
            if (t->partner_later[s][i] && t->partner[s] < 0) bad = "partner_later";
            for (int j = 0; j < t->n_later_opps[s][i]; j++)
                if (t->later_opps[s][i][j] < 0 || t->later_opps[s][i][j] >= t->n_seats)
                    bad = "later_opps";
        }
    }
    for (int c = 0; c < t->n_cards && !bad; c++) {
        if (c != t->matto && (t->suit[c] < 0 || t->suit[c] > TRUMP_SUIT)) bad = "suit";
        if (t->strength[c] < -1 || t->strength[c] > 255) bad = "strength";
        if (t->keep[c] < 0) bad = "keep";
    }
    if (bad) {
        PyErr_Format(PyExc_ValueError, "%s: a value out of range", bad);
        return -1;
    }
    return 0;
}

static int Tables_init(Tables *self, PyObject *args, PyObject *kw) {
    if (self->ready) {
        PyErr_SetString(PyExc_TypeError, "the tables are already made");
        return -1;
    }
    static char *names[] = {
        "n_seats", "side", "partner", "suit", "points", "strength", "rank", "keep", "higher",
        "suit_mask", "trump_mask", "matto", "trick_adj", "matto_adj", "surrender", "total",
        "later_opps", "partner_later", "out_of_time", NULL};
    PyObject *side, *partner, *suit, *points, *strength, *rank, *keep, *higher, *suit_mask;
    PyObject *trump_mask, *later_opps, *partner_later, *oot;
    int n_seats, matto, trick_adj, matto_adj, surrender, total;
    if (!PyArg_ParseTupleAndKeywords(
            args, kw, "iOOOOOOOOOOiiiiiOOO", names, &n_seats, &side, &partner, &suit, &points,
            &strength, &rank, &keep, &higher, &suit_mask, &trump_mask, &matto, &trick_adj,
            &matto_adj, &surrender, &total, &later_opps, &partner_later, &oot))
        return -1;
    if (n_seats < 2 || n_seats > MAXS) {
        PyErr_SetString(PyExc_ValueError, "n_seats: 2 to 4");
        return -1;
    }
    self->n_seats = n_seats;
    Py_ssize_t n = 0, k = 0;
    if (seq_ints(side, self->side, MAXS, &k, "side") < 0) return -1;
    if (k != n_seats) goto bad_len;
    if (seq_ints(partner, self->partner, MAXS, &k, "partner") < 0) return -1;
    if (k != n_seats) goto bad_len;
    if (seq_ints(suit, self->suit, MAXC, &n, "suit") < 0) return -1;
    if (seq_ints(points, self->points, MAXC, &k, "points") < 0 || k != n) goto bad_len;
    if (seq_ints(strength, self->strength, MAXC, &k, "strength") < 0 || k != n) goto bad_len;
    if (seq_ints(rank, self->rank, MAXC, &k, "rank") < 0 || k != n) goto bad_len;
    if (seq_ints(keep, self->keep, MAXC, &k, "keep") < 0 || k != n) goto bad_len;
    if (seq_masks(higher, self->higher, MAXC, &k, "higher") < 0 || k != n) goto bad_len;
    if (seq_masks(suit_mask, self->suit_mask, 5, &k, "suit_mask") < 0 || k != 5) goto bad_len;
    if (to_mask(trump_mask, &self->trump_mask) < 0) return -1;
    self->n_cards = (int)n;
    self->n_trumps = popcount(self->trump_mask);
    if (matto < 0 || matto >= n) {
        PyErr_SetString(PyExc_ValueError, "matto: not a card");
        return -1;
    }
    self->matto = matto;
    self->matto_mask = BIT(matto);
    self->matto_pts = self->points[matto];
    self->trick_adj = trick_adj;
    self->matto_adj = matto_adj;
    self->surrender = surrender;
    self->total = total;
    for (int s = 0; s < n_seats; s++) self->nxt[s] = (s + 1) % n_seats;
    for (int s = 0; s < n_seats; s++) {
        PyObject *row = PySequence_GetItem(later_opps, s);
        PyObject *prow = PySequence_GetItem(partner_later, s);
        if (!row || !prow) { Py_XDECREF(row); Py_XDECREF(prow); return -1; }
        for (int i = 0; i < n_seats; i++) {
            PyObject *cell = PySequence_GetItem(row, i);
            PyObject *pcell = PySequence_GetItem(prow, i);
            Py_ssize_t m = 0;
            int bad = !cell || !pcell
                || seq_ints(cell, self->later_opps[s][i], MAXS, &m, "later_opps") < 0;
            self->n_later_opps[s][i] = (int)m;
            if (!bad) {
                self->partner_later[s][i] = PyObject_IsTrue(pcell);
                bad = self->partner_later[s][i] < 0;
            }
            Py_XDECREF(cell);
            Py_XDECREF(pcell);
            if (bad) { Py_DECREF(row); Py_DECREF(prow); return -1; }
        }
        Py_DECREF(row);
        Py_DECREF(prow);
    }
    if (check_tables(self) < 0) return -1;
    Py_INCREF(oot);
    Py_XSETREF(self->out_of_time, oot);
    self->ready = 1;
    return 0;
bad_len:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "tables of different lengths");
    return -1;
}

static void Tables_dealloc(Tables *self) {
    Py_XDECREF(self->out_of_time);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* --- the rules of thumb (fast.py: _policy_fn) ------------------------------- */

static inline u128 can_beat(const Tables *t, int best, int led, u128 h) {
    if (led == TRUMP_SUIT) return h & t->higher[best];
    u128 follow = h & t->suit_mask[led];
    if (follow) return best < t->n_trumps ? 0 : (follow & t->higher[best]);
    if (best < t->n_trumps) return h & t->higher[best];
    return h & t->trump_mask;
}

static int policy(const Tables *t, const u128 *hands, int seat, int leader, const int *trick,
                  int n, u128 legal, int ruff_lead, int ruff_points) {
    if (!(legal & (legal - 1))) return high_bit(legal);
    const int NT = t->n_trumps;
    const int MATTO = t->matto;
    int my_side = t->side[seat];
    const int *opp_seats = t->later_opps[seat][n];
    int n_opp = t->n_later_opps[seat][n];
    int partner_later = t->partner_later[seat][n];
    u128 nonm = legal & ~t->matto_mask;
    u128 has_matto = legal & t->matto_mask;
    if (!nonm) return MATTO;

    int led = NO_SUIT, best = -1, best_key = -1, winner = -1, tp = 0;
    for (int i = 0; i < n; i++) {
        int c = trick[i];
        if (c == MATTO) continue;
        tp += t->points[c];
        int s = t->suit[c];
        if (led == NO_SUIT) led = s;
        int key = (s == led || s == TRUMP_SUIT) ? t->strength[c] : -1;
        if (key > best_key) {
            best_key = key;
            best = c;
            winner = (leader + i) % t->n_seats;
        }
    }

    if (led == NO_SUIT) {
        u128 partner = partner_later ? hands[t->partner[seat]] : 0;
        u128 opp_trumps = 0;
        for (int j = 0; j < n_opp; j++) opp_trumps |= hands[opp_seats[j]] & t->trump_mask;
        int my_trumps = popcount(hands[seat] & t->trump_mask);
        int best_c = -1;
        long best_v = -1000000000L;
        int cur = -2;
        u128 follow = 0, ruffed = 0, pruff = 0;
        u128 m = nonm;
        while (m) {
            int c = low_bit(m);
            m &= m - 1;
            int s = t->suit[c];
            if (s != cur) {
                cur = s;
                pruff = 0;
                if (s == TRUMP_SUIT) {
                    follow = opp_trumps;
                    ruffed = 0;
                } else {
                    follow = 0;
                    ruffed = 0;
                    u128 sm = t->suit_mask[s];
                    for (int j = 0; j < n_opp; j++) {
                        u128 h = hands[opp_seats[j]];
                        u128 f = h & sm;
                        if (f) follow |= f;
                        else ruffed |= h & t->trump_mask;
                    }
                    if (ruff_lead && partner && !(partner & sm)) {
                        pruff = partner & t->trump_mask;
                        if (pruff && (ruffed & t->higher[high_bit(pruff)])) pruff = 0;
                    }
                }
            }
            long v;
            if (!ruffed && !(follow & t->higher[c])) {
                if (s == TRUMP_SUIT)
                    v = opp_trumps ? 60 + 3 * my_trumps - t->keep[c] / 4 : 5 - t->keep[c];
                else
                    v = 80 + 4 * t->points[c];
            } else if (pruff) {
                v = ruff_lead + (long)ruff_points * t->points[c] - t->rank[c];
            } else {
                v = -6 * t->points[c] - t->rank[c];
                if (s == TRUMP_SUIT) v -= 8 + t->keep[c];
                else if (partner && !(ruff_lead && ruffed) && can_beat(t, c, s, partner)) v += 10;
            }
            if (v > best_v) { best_v = v; best_c = c; }
        }
        return best_c;
    }

    u128 follow = 0, ruffed = 0;
    if (led == TRUMP_SUIT) {
        for (int j = 0; j < n_opp; j++) follow |= hands[opp_seats[j]] & t->trump_mask;
    } else {
        u128 sm = t->suit_mask[led];
        for (int j = 0; j < n_opp; j++) {
            u128 h = hands[opp_seats[j]];
            u128 f = h & sm;
            if (f) follow |= f;
            else ruffed |= h & t->trump_mask;
        }
    }
    int safe;
    if (best < NT) safe = !(((led == TRUMP_SUIT) ? follow : ruffed) & t->higher[best]);
    else safe = !ruffed && !(follow & t->higher[best]);
    int partner_winning = t->side[winner] == my_side;
    int best_c = -1;
    long best_v = -1000000000L;
    u128 m;
    if (partner_winning && safe) {
        m = nonm;
        while (m) {
            int c = low_bit(m);
            m &= m - 1;
            long v = 8 * t->points[c] - t->keep[c];
            if (v > best_v) { best_v = v; best_c = c; }
        }
        return best_c;
    }
    m = nonm;
    while (m) {
        int c = low_bit(m);
        m &= m - 1;
        int s = t->suit[c];
        int key = (s == led || s == TRUMP_SUIT) ? t->strength[c] : -1;
        if (key <= best_key) continue;
        if (c < NT) {
            if (((led == TRUMP_SUIT) ? follow : ruffed) & t->higher[c]) continue;
        } else if (ruffed || (follow & t->higher[c])) {
            continue;
        }
        long v = 4 * t->points[c] - t->keep[c];
        if (v > best_v) { best_v = v; best_c = c; }
    }
    if (best_c >= 0) {
        if (!partner_winning || tp + t->points[best_c] >= 4 || t->keep[best_c] <= 6) return best_c;
    }
    best_c = -1;
    best_v = 1000000000L;
    m = nonm;
    while (m) {
        int c = low_bit(m);
        m &= m - 1;
        long v = 8 * t->points[c] + t->keep[c];
        if (v < best_v) { best_v = v; best_c = c; }
    }
    if (has_matto && t->points[best_c] >= 3 && !(partner_winning && partner_later)) return MATTO;
    return best_c;
}

static int trick_winner(const Tables *t, const int *trick, int n) {
    int led = NO_SUIT, bk = -1, wi = 0;
    for (int i = 0; i < n; i++) {
        int x = trick[i];
        if (x == t->matto) continue;
        int s = t->suit[x];
        if (led == NO_SUIT) led = s;
        int key = (s == led || s == TRUMP_SUIT) ? t->strength[x] : -1;
        if (key > bk) { bk = key; wi = i; }
    }
    return wi;
}

/* --- arguments ------------------------------------------------------------- */

static int read_hands(const Tables *t, PyObject *seq, u128 *hands) {
    Py_ssize_t k = 0;
    if (seq_masks(seq, hands, MAXS, &k, "hands") < 0) return -1;
    if (k != t->n_seats) {
        PyErr_Format(PyExc_ValueError, "hands: %zd, the ruleset has %d seats", k, t->n_seats);
        return -1;
    }
    return 0;
}

static int read_trick(const Tables *t, PyObject *seq, int *trick, int *n) {
    Py_ssize_t k = 0;
    if (seq_ints(seq, trick, MAXS, &k, "trick") < 0) return -1;
    for (Py_ssize_t i = 0; i < k; i++) {
        if (trick[i] < 0 || trick[i] >= t->n_cards) {
            PyErr_Format(PyExc_ValueError, "trick: %d is not a card", trick[i]);
            return -1;
        }
    }
    if (k >= t->n_seats) {
        PyErr_SetString(PyExc_ValueError, "trick: already complete");
        return -1;
    }
    *n = (int)k;
    return 0;
}

static int check_seat(const Tables *t, int seat, const char *what) {
    if (seat < 0 || seat >= t->n_seats) {
        PyErr_Format(PyExc_ValueError, "%s: %d is not a seat", what, seat);
        return -1;
    }
    return 0;
}

static int check_hands_cards(const Tables *t, const u128 *hands);

/* --- Policy: the rules of thumb as a callable ------------------------------- */

typedef struct {
    PyObject_HEAD
    Tables *tables;
    int ruff_lead, ruff_points;
} Policy;

static PyObject *Policy_call(Policy *self, PyObject *args, PyObject *kw) {
    PyObject *hands_o, *trick_o, *legal_o;
    int seat, leader;
    if (kw && PyDict_GET_SIZE(kw)) {
        PyErr_SetString(PyExc_TypeError, "a policy takes positional arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "OiiOO", &hands_o, &seat, &leader, &trick_o, &legal_o)) return NULL;
    const Tables *t = self->tables;
    u128 hands[MAXS], legal;
    int trick[MAXS], n;
    if (read_hands(t, hands_o, hands) < 0 || read_trick(t, trick_o, trick, &n) < 0
        || to_mask(legal_o, &legal) < 0 || check_seat(t, seat, "seat") < 0
        || check_seat(t, leader, "leader") < 0 || check_hands_cards(t, hands) < 0)
        return NULL;
    if (legal >> t->n_cards) {
        PyErr_SetString(PyExc_ValueError, "legal: a card past the pack");
        return NULL;
    }
    if (!legal) {
        PyErr_SetString(PyExc_ValueError, "legal: no card");
        return NULL;
    }
    return PyLong_FromLong(policy(t, hands, seat, leader, trick, n, legal, self->ruff_lead,
                                  self->ruff_points));
}

static void Policy_dealloc(Policy *self) {
    Py_XDECREF(self->tables);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMemberDef Policy_members[] = {
    {"ruff_lead", T_INT, offsetof(Policy, ruff_lead), READONLY, NULL},
    {"ruff_points", T_INT, offsetof(Policy, ruff_points), READONLY, NULL},
    {NULL}};

static PyObject *Tables_policy(Tables *self, PyObject *args) {
    int ruff_lead = 0, ruff_points = 0;
    if (!PyArg_ParseTuple(args, "|ii", &ruff_lead, &ruff_points)) return NULL;
    Policy *p = PyObject_New(Policy, &PolicyType);
    if (!p) return NULL;
    Py_INCREF(self);
    p->tables = self;
    p->ruff_lead = ruff_lead;
    p->ruff_points = ruff_points;
    return (PyObject *)p;
}

/* --- open-hand playouts (fast.py: _finish) ---------------------------------- */

static int set_list_int(PyObject *list, Py_ssize_t i, long v) {
    PyObject *x = PyLong_FromLong(v);
    if (!x) return -1;
    return PyList_SetItem(list, i, x); /* steals x */
}

static PyObject *Tables_finish(Tables *t, PyObject *args) {
    PyObject *hands_o, *trick_o, *pts_o, *won_o, *pol_o, *at_o = Py_None;
    int leader, first = -1, stop = 0;
    if (!PyArg_ParseTuple(args, "O!iOO!O!O!|iiO", &PyList_Type, &hands_o, &leader, &trick_o,
                          &PyList_Type, &pts_o, &PyList_Type, &won_o, &PolicyType, &pol_o, &first,
                          &stop, &at_o))
        return NULL;
    Policy *pol = (Policy *)pol_o;
    if (pol->tables != t) {
        PyErr_SetString(PyExc_ValueError, "a policy of another ruleset");
        return NULL;
    }
    u128 hands[MAXS];
    int trick[MAXS], n;
    if (read_hands(t, hands_o, hands) < 0 || read_trick(t, trick_o, trick, &n) < 0
        || check_seat(t, leader, "leader") < 0 || check_hands_cards(t, hands) < 0)
        return NULL;
    Py_ssize_t n_sides = PyList_GET_SIZE(pts_o);
    if (n_sides > MAXS || PyList_GET_SIZE(won_o) != n_sides) {
        PyErr_SetString(PyExc_ValueError, "pts and won: one entry a side");
        return NULL;
    }
    long pts[MAXS], won[MAXS];
    for (Py_ssize_t i = 0; i < n_sides; i++) {
        pts[i] = PyLong_AsLong(PyList_GET_ITEM(pts_o, i));
        if (pts[i] == -1 && PyErr_Occurred()) return NULL;
        won[i] = PyLong_AsLong(PyList_GET_ITEM(won_o, i));
        if (won[i] == -1 && PyErr_Occurred()) return NULL;
    }
    for (int s = 0; s < t->n_seats; s++) {
        if (t->side[s] < 0 || t->side[s] >= n_sides) {
            PyErr_SetString(PyExc_ValueError, "pts and won: one entry a side");
            return NULL;
        }
    }
    if (first >= t->n_cards) {
        PyErr_Format(PyExc_ValueError, "first: %d is not a card", first);
        return NULL;
    }
    int N = t->n_seats;
    int led = NO_SUIT;
    for (int i = 0; i < n; i++)
        if (trick[i] != t->matto) { led = t->suit[trick[i]]; break; }
    int seat = (leader + n) % N;
    int at_seat = -1;
    for (;;) {
        if (n == 0) {
            if (!hands[seat]) break;
            if (stop && first < 0 && popcount(hands[seat]) <= stop) { at_seat = seat; break; }
        }
        while (n < N) {
            u128 hand = hands[seat];
            int c;
            if (first >= 0) {
                c = first;
                first = -1;
            } else {
                u128 legal = legal_mask(t, hand, led);
                if (!legal) {
                    PyErr_Format(PyExc_ValueError, "seat %d has no card to play", seat);
                    return NULL;
                }
                c = policy(t, hands, seat, leader, trick, n, legal, pol->ruff_lead, pol->ruff_points);
            }
            hands[seat] = hand & ~BIT(c);
            trick[n] = c;
            if (c == t->matto) pts[t->side[seat]] += t->matto_pts;
            else if (led == NO_SUIT) led = t->suit[c];
            n++;
            seat = t->nxt[seat];
        }
        long tp = t->trick_adj;
        for (int i = 0; i < N; i++)
            tp += trick[i] == t->matto ? t->matto_adj : t->points[trick[i]];
        int w = (leader + trick_winner(t, trick, N)) % N;
        pts[t->side[w]] += tp;
        won[t->side[w]] += 1;
        leader = seat = w;
        n = 0;
        led = NO_SUIT;
    }
    for (int s = 0; s < N; s++) {
        PyObject *h = from_mask(hands[s]);
        if (!h || PyList_SetItem(hands_o, s, h) < 0) return NULL;
    }
    for (Py_ssize_t i = 0; i < n_sides; i++) {
        if (set_list_int(pts_o, i, pts[i]) < 0 || set_list_int(won_o, i, won[i]) < 0) return NULL;
    }
    if (at_seat >= 0) {
        if (at_o == Py_None || !PyList_Check(at_o)) {
            PyErr_SetString(PyExc_ValueError, "stop needs a list at");
            return NULL;
        }
        PyObject *x = PyLong_FromLong(at_seat);
        if (!x || PyList_Append(at_o, x) < 0) { Py_XDECREF(x); return NULL; }
        Py_DECREF(x);
    }
    return PyTuple_Pack(2, pts_o, won_o);
}

static PyObject *Tables_legal_mask(Tables *t, PyObject *args) {
    PyObject *hand_o;
    int led;
    if (!PyArg_ParseTuple(args, "Oi", &hand_o, &led)) return NULL;
    u128 hand;
    if (to_mask(hand_o, &hand) < 0) return NULL;
    if (led < NO_SUIT || led > TRUMP_SUIT) {
        PyErr_Format(PyExc_ValueError, "led: %d is not a suit", led);
        return NULL;
    }
    return from_mask(legal_mask(t, hand, led));
}


/* policy_plays(history, leader, trick, hands, me) -> [(legal cards, agreed)]:
 * search.policy_plays, the other seats' past plays judged by the rules of thumb
 * had the hidden cards been ``hands``. */
static PyObject *Tables_policy_plays(Tables *t, PyObject *args) {
    PyObject *history, *trick_o, *hands_o;
    int leader, me;
    if (!PyArg_ParseTuple(args, "OiOOi", &history, &leader, &trick_o, &hands_o, &me)) return NULL;
    u128 hands[MAXS];
    if (read_hands(t, hands_o, hands) < 0 || check_hands_cards(t, hands) < 0
        || check_seat(t, leader, "leader") < 0)
        return NULL;
    PyObject *hist = PySequence_Fast(history, "history");
    if (!hist) return NULL;
    Py_ssize_t nt = PySequence_Fast_GET_SIZE(hist);
    int *leaders = PyMem_Malloc(sizeof(int) * (nt + 1));
    int (*cards)[MAXS] = PyMem_Malloc(sizeof(int[MAXS]) * (nt + 1));
    int *lens = PyMem_Malloc(sizeof(int) * (nt + 1));
    PyObject *out = NULL;
    if (!leaders || !cards || !lens) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t j = 0; j <= nt; j++) {
        Py_ssize_t k = 0;
        if (j < nt) {
            PyObject *pair = PySequence_Fast(PySequence_Fast_GET_ITEM(hist, j),
                                             "history: (leader, cards) pairs");
            if (!pair) goto done;
            if (PySequence_Fast_GET_SIZE(pair) != 2) {
                Py_DECREF(pair);
                PyErr_SetString(PyExc_ValueError, "history: (leader, cards) pairs");
                goto done;
            }
            long ld = PyLong_AsLong(PySequence_Fast_GET_ITEM(pair, 0));
            if ((ld == -1 && PyErr_Occurred())
                || seq_ints(PySequence_Fast_GET_ITEM(pair, 1), cards[j], MAXS, &k, "history") < 0) {
                Py_DECREF(pair);
                goto done;
            }
            Py_DECREF(pair);
            if (ld < 0 || ld >= t->n_seats) {
                PyErr_Format(PyExc_ValueError, "history: %ld is not a seat", ld);
                goto done;
            }
            leaders[j] = (int)ld;
        } else {
            leaders[j] = leader;
            if (seq_ints(trick_o, cards[j], MAXS, &k, "trick") < 0) goto done;
        }
        lens[j] = (int)k;
        if (check_seat(t, leaders[j], "leader") < 0) goto done;
        for (int i = 0; i < k; i++) {
            if (cards[j][i] < 0 || cards[j][i] >= t->n_cards) {
                PyErr_Format(PyExc_ValueError, "history: %d is not a card", cards[j][i]);
                goto done;
            }
            hands[(leaders[j] + i) % t->n_seats] |= BIT(cards[j][i]);
        }
    }
    out = PyList_New(0);
    if (!out) goto done;
    for (Py_ssize_t j = 0; j <= nt; j++) {
        int ld = leaders[j];
        int led = NO_SUIT;
        for (int i = 0; i < lens[j]; i++) {
            int c = cards[j][i];
            int s = (ld + i) % t->n_seats;
            u128 h = hands[s];
            if (s != me) {
                u128 legal = legal_mask(t, h, led);
                if (legal & (legal - 1)) {
                    int got = policy(t, hands, s, ld, cards[j], i, legal, 0, 0);
                    PyObject *tup = Py_BuildValue("(iO)", popcount(legal),
                                                  got == c ? Py_True : Py_False);
                    if (!tup || PyList_Append(out, tup) < 0) {
                        Py_XDECREF(tup);
                        Py_CLEAR(out);
                        goto done;
                    }
                    Py_DECREF(tup);
                }
            }
            hands[s] = h & ~BIT(c);
            if (led == NO_SUIT && c != t->matto) led = t->suit[c];
        }
    }
done:
    PyMem_Free(leaders);
    PyMem_Free(cards);
    PyMem_Free(lens);
    Py_DECREF(hist);
    return out;
}

/* --- the exact solver (solver.py) --------------------------------------------- */

typedef struct {
    u128 h[MAXS];
    int32_t acc;
    int32_t lo, hi;
    int8_t leader, tag, used;
} Entry;

typedef struct {
    PyObject_HEAD
    Tables *t;
    int me;
    double deadline, node_limit;
    long long nodes;
    Entry *tab;
    size_t cap, count;
} Solver;

/* Python's own time.monotonic() (the clock the deadline was read from: not
   CLOCK_MONOTONIC everywhere), called once every CHECK_MASK + 1 nodes; -1 on error */
static double now_monotonic(void) {
    PyObject *x = PyObject_CallNoArgs(py_monotonic);
    if (!x) return -1.0;
    double v = PyFloat_AsDouble(x);
    Py_DECREF(x);
    return v;
}

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static uint64_t entry_hash(const Solver *s, const u128 *h, int leader, int tag, int acc) {
    uint64_t x = (uint64_t)leader * 0x9E3779B97F4A7C15ULL + (uint64_t)tag * 0x632BE59BD9B4E019ULL
        + (uint64_t)(uint32_t)acc * 0x85EBCA77C2B2AE63ULL;
    for (int i = 0; i < s->t->n_seats; i++)
        x = mix(x ^ (uint64_t)h[i] ^ mix((uint64_t)(h[i] >> 64) + 0x27D4EB2F165667C5ULL));
    return x;
}

/* The slot of a key: its entry, or the empty slot where it would go. */
static Entry *tt_slot(const Solver *s, const u128 *h, int leader, int tag, int acc) {
    size_t mask = s->cap - 1;
    size_t i = (size_t)entry_hash(s, h, leader, tag, acc) & mask;
    int N = s->t->n_seats;
    for (;;) {
        Entry *e = &s->tab[i];
        if (!e->used) return e;
        if (e->leader == leader && e->tag == tag && (tag == 0 || e->acc == acc)) {
            int same = 1;
            for (int k = 0; k < N; k++)
                if (e->h[k] != h[k]) { same = 0; break; }
            if (same) return e;
        }
        i = (i + 1) & mask;
    }
}

static int tt_grow(Solver *s) {
    size_t old_cap = s->cap;
    Entry *old = s->tab;
    size_t cap = old_cap ? old_cap * 2 : 256;
    Entry *tab = PyMem_Calloc(cap, sizeof(Entry));
    if (!tab) { PyErr_NoMemory(); return -1; }
    s->tab = tab;
    s->cap = cap;
    for (size_t i = 0; i < old_cap; i++) {
        if (!old[i].used) continue;
        Entry *e = tt_slot(s, old[i].h, old[i].leader, old[i].tag, old[i].acc);
        *e = old[i];
    }
    PyMem_Free(old);
    return 0;
}

/* Errors propagate as this value (with a Python exception set). */
#define ERR_V (-0x40000000)

static int s_play(Solver *s, u128 *hands, int leader, int n, int led, int bk, int ws, int tp,
                  int acc, int f0, int f1, int alpha, int beta);

static int s_last(Solver *s, const u128 *hands, int leader, int *acc, int *f0, int *f1) {
    const Tables *t = s->t;
    int led = NO_SUIT, bk = -1, ws = leader, tp = t->trick_adj, seat = leader;
    for (int i = 0; i < t->n_seats; i++) {
        int c = hands[seat] ? high_bit(hands[seat]) : -1;
        if (c < 0) {
            PyErr_SetString(PyExc_ValueError, "the hands are not of one length");
            return -1;
        }
        if (c == t->matto) {
            if (t->side[seat] == s->me) *acc += t->matto_pts;
            tp += t->matto_adj;
        } else {
            int su = t->suit[c];
            if (led == NO_SUIT) led = su;
            int key = (su == led || su == TRUMP_SUIT) ? t->strength[c] : -1;
            if (key > bk) { bk = key; ws = seat; }
            tp += t->points[c];
        }
        seat = t->nxt[seat];
    }
    if (t->side[ws] == s->me) { *acc += tp; *f0 = 1; }
    else *f1 = 1;
    return 0;
}

static int s_end(Solver *s, const u128 *hands, int leader, int acc, int f0, int f1) {
    if (hands[leader] && s_last(s, hands, leader, &acc, &f0, &f1) < 0) return ERR_V;
    if (s->t->surrender) {
        if (!f0) return 0;
        if (!f1) return s->t->total;
    }
    return acc;
}

static int s_boundary(Solver *s, u128 *hands, int leader, int acc, int f0, int f1, int alpha,
                      int beta) {
    const Tables *t = s->t;
    u128 h = hands[leader];
    if (!(h & (h - 1))) return s_end(s, hands, leader, acc, f0, f1);
    int tag, kacc;
    if ((f0 && f1) || !t->surrender) {
        if (acc >= beta) return acc;
        u128 left = 0;
        for (int i = 0; i < t->n_seats; i++) left |= hands[i];
        int top = acc + mask_points(t, left & ~t->matto_mask);
        top += t->trick_adj * popcount(hands[leader]);
        if (left & t->matto_mask) top += t->matto_pts + t->matto_adj;
        if (top <= alpha) return top;
        tag = 0;
        kacc = 0;
    } else {
        tag = 1 + (f0 ? 1 : 0) + 2 * (f1 ? 1 : 0);
        kacc = acc;
    }
    if ((s->count + 1) * 2 > s->cap && tt_grow(s) < 0) return ERR_V;
    Entry *ent = tt_slot(s, hands, leader, tag, kacc);
    int have = ent->used;
    int elo = have ? ent->lo : -INF_V, ehi = have ? ent->hi : INF_V;
    if (have) {
        int lo = elo + acc, hi = ehi + acc;
        if (lo >= beta) return lo;
        if (hi <= alpha) return hi;
        if (lo == hi) return lo;
        if (lo > alpha) alpha = lo;
        if (hi < beta) beta = hi;
    }
    int a0 = alpha, b0 = beta;
    int v = s_play(s, hands, leader, 0, NO_SUIT, -1, leader, t->trick_adj, acc, f0, f1, alpha, beta);
    if (v == ERR_V) return ERR_V;
    /* the table may have grown below: find the slot again */
    ent = tt_slot(s, hands, leader, tag, kacc);
    if (!ent->used) {
        ent->used = 1;
        for (int i = 0; i < t->n_seats; i++) ent->h[i] = hands[i];
        for (int i = t->n_seats; i < MAXS; i++) ent->h[i] = 0;
        ent->leader = (int8_t)leader;
        ent->tag = (int8_t)tag;
        ent->acc = kacc;
        s->count++;
    }
    int lo = elo, hi = ehi;
    if (v <= a0) { if (v - acc < hi) hi = v - acc; }
    else if (v >= b0) { if (v - acc > lo) lo = v - acc; }
    else lo = hi = v - acc;
    ent->lo = lo;
    ent->hi = hi;
    return v;
}

static int s_child(Solver *s, u128 *hands, int leader, int n, int led, int bk, int ws, int tp,
                   int c, int acc, int f0, int f1, int alpha, int beta) {
    const Tables *t = s->t;
    int seat = (leader + n) % t->n_seats;
    if (c == t->matto) {
        if (t->side[seat] == s->me) acc += t->matto_pts;
        tp += t->matto_adj;
    } else {
        int su = t->suit[c];
        if (led == NO_SUIT) led = su;
        int key = (su == led || su == TRUMP_SUIT) ? t->strength[c] : -1;
        if (key > bk) { bk = key; ws = seat; }
        tp += t->points[c];
    }
    if (n == t->n_seats - 1) {
        if (t->side[ws] != s->me) return s_boundary(s, hands, ws, acc, f0, 1, alpha, beta);
        return s_boundary(s, hands, ws, acc + tp, 1, f1, alpha, beta);
    }
    return s_play(s, hands, leader, n + 1, led, bk, ws, tp, acc, f0, f1, alpha, beta);
}

static int s_play(Solver *s, u128 *hands, int leader, int n, int led, int bk, int ws, int tp,
                  int acc, int f0, int f1, int alpha, int beta) {
    const Tables *t = s->t;
    s->nodes++;
    if (!(s->nodes & CHECK_MASK)) {
        double now = 0.0;
        if (s->deadline != INFINITY) {
            now = now_monotonic();
            if (now == -1.0 && PyErr_Occurred()) return ERR_V;
        }
        if ((double)s->nodes > s->node_limit || now > s->deadline) {
            PyErr_SetNone(t->out_of_time);
            return ERR_V;
        }
    }
    int seat = (leader + n) % t->n_seats;
    u128 hand = hands[seat];
    u128 legal = legal_mask(t, hand, led);
    if (!legal) {
        PyErr_Format(PyExc_ValueError, "seat %d has no card to play", seat);
        return ERR_V;
    }
    u128 alive = 0;
    for (int i = 0; i < t->n_seats; i++) alive |= hands[i];
    if (bk >= 0) alive |= BIT(bk >= 128 ? bk - 128 : bk);
    int mine_winning = n > 0 && t->side[ws] == t->side[seat];
    int orders[MAXC], cards[MAXC], k = 0;
    int prev = -1;
    u128 m = legal;
    while (m) {
        int c = low_bit(m);
        u128 low = BIT(c);
        m &= m - 1;
        if (prev >= 0 && t->suit[prev] == t->suit[c] && t->points[prev] == t->points[c]
            && !(t->higher[prev] & ~t->higher[c] & ~low & alive)) {
            prev = c;
            continue;
        }
        prev = c;
        int order;
        if (c == t->matto) {
            order = 50;
        } else if (n == 0) {
            if (!(t->higher[c] & alive & ~hand)) order = -200 - t->points[c];
            else order = t->keep[c] + 4 * t->points[c];
        } else {
            int su = t->suit[c];
            int key = (su == TRUMP_SUIT || su == led || led == NO_SUIT) ? t->strength[c] : -1;
            if (mine_winning) order = -8 * t->points[c] + t->keep[c];
            else if (key > bk) order = -100 + t->keep[c] - 4 * t->points[c];
            else order = 8 * t->points[c] + t->keep[c];
        }
        /* insertion in (order, card) order: Python's sort of (order, c) pairs */
        int j = k++;
        while (j > 0 && (orders[j - 1] > order || (orders[j - 1] == order && cards[j - 1] > c))) {
            orders[j] = orders[j - 1];
            cards[j] = cards[j - 1];
            j--;
        }
        orders[j] = order;
        cards[j] = c;
    }
    int maximizing = t->side[seat] == s->me;
    int best = maximizing ? -INF_V : INF_V;
    for (int i = 0; i < k; i++) {
        int c = cards[i];
        hands[seat] = hand ^ BIT(c);
        int v = s_child(s, hands, leader, n, led, bk, ws, tp, c, acc, f0, f1, alpha, beta);
        if (v == ERR_V) { hands[seat] = hand; return ERR_V; }
        if (maximizing) {
            if (v > best) {
                best = v;
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta) break;
                }
            }
        } else {
            if (v < best) {
                best = v;
                if (v < beta) {
                    beta = v;
                    if (alpha >= beta) break;
                }
            }
        }
    }
    hands[seat] = hand;
    return best;
}

static PyObject *Tables_solver(Tables *self, PyObject *args) {
    int me;
    double deadline = INFINITY, node_limit = INFINITY;
    if (!PyArg_ParseTuple(args, "i|dd", &me, &deadline, &node_limit)) return NULL;
    Solver *s = PyObject_New(Solver, &SolverType);
    if (!s) return NULL;
    Py_INCREF(self);
    s->t = self;
    s->me = me;
    s->deadline = deadline;
    s->node_limit = node_limit;
    s->nodes = 0;
    s->tab = NULL;
    s->cap = 0;
    s->count = 0;
    if (tt_grow(s) < 0) { Py_DECREF(s); return NULL; }
    return (PyObject *)s;
}

static void Solver_dealloc(Solver *s) {
    PyMem_Free(s->tab);
    Py_XDECREF(s->t);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int check_hands_cards(const Tables *t, const u128 *hands) {
    u128 all = t->n_cards >= 128 ? ~(u128)0 : BIT(t->n_cards) - 1;
    for (int i = 0; i < t->n_seats; i++) {
        if (hands[i] & ~all) {
            PyErr_Format(PyExc_ValueError, "hands: seat %d holds a card past the pack", i);
            return -1;
        }
    }
    return 0;
}

static int check_acc(int acc) {
    if (acc < -100000 || acc > 100000) {
        PyErr_Format(PyExc_ValueError, "acc: %d points is out of range", acc);
        return -1;
    }
    return 0;
}

static PyObject *Solver_root_values(Solver *s, PyObject *args) {
    PyObject *hands_o, *trick_o, *cands_o;
    int leader, acc, mine_won, others_won;
    if (!PyArg_ParseTuple(args, "OiOiiiO", &hands_o, &leader, &trick_o, &acc, &mine_won,
                          &others_won, &cands_o))
        return NULL;
    const Tables *t = s->t;
    u128 hands[MAXS], cands;
    int trick[MAXS], n;
    if (read_hands(t, hands_o, hands) < 0 || read_trick(t, trick_o, trick, &n) < 0
        || to_mask(cands_o, &cands) < 0 || check_seat(t, leader, "leader") < 0
        || check_hands_cards(t, hands) < 0)
        return NULL;
    if (check_acc(acc) < 0) return NULL;
    int seat = (leader + n) % t->n_seats;
    if (cands & ~hands[seat]) {
        PyErr_SetString(PyExc_ValueError, "cands: a card the seat does not hold");
        return NULL;
    }
    /* the trick so far (solver.py: _trick_so_far) */
    int led = NO_SUIT, bk = -1, ws = leader, tp = t->trick_adj;
    u128 tmask = 0;
    for (int i = 0; i < n; i++) {
        int c = trick[i];
        tmask |= BIT(c);
        if (c == t->matto) { tp += t->matto_adj; continue; }
        tp += t->points[c];
        int su = t->suit[c];
        if (led == NO_SUIT) led = su;
        int key = (su == led || su == TRUMP_SUIT) ? t->strength[c] : -1;
        if (key > bk) { bk = key; ws = (leader + i) % t->n_seats; }
    }
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    int f0 = mine_won > 0, f1 = others_won > 0;
    u128 alive = tmask;
    for (int i = 0; i < t->n_seats; i++) alive |= hands[i];
    int prev = -1, prev_v = 0;
    u128 m = cands;
    while (m) {
        int c = low_bit(m);
        u128 low = BIT(c);
        m &= m - 1;
        int v;
        if (prev >= 0 && t->suit[prev] == t->suit[c] && t->points[prev] == t->points[c]
            && !(t->higher[prev] & ~t->higher[c] & ~low & alive)) {
            v = prev_v;
        } else {
            hands[seat] ^= low;
            v = s_child(s, hands, leader, n, led, bk, ws, tp, c, acc, f0, f1, -1, t->total + 1);
            hands[seat] ^= low;
            if (v == ERR_V) { Py_DECREF(out); return NULL; }
            prev_v = v;
        }
        prev = c;
        PyObject *k = PyLong_FromLong(c), *x = PyLong_FromLong(v);
        if (!k || !x || PyDict_SetItem(out, k, x) < 0) {
            Py_XDECREF(k); Py_XDECREF(x); Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(k);
        Py_DECREF(x);
    }
    return out;
}

static PyObject *Solver_lead_value(Solver *s, PyObject *args) {
    PyObject *hands_o;
    int leader, acc, mine_won, others_won;
    if (!PyArg_ParseTuple(args, "Oiiii", &hands_o, &leader, &acc, &mine_won, &others_won))
        return NULL;
    u128 hands[MAXS];
    if (read_hands(s->t, hands_o, hands) < 0 || check_seat(s->t, leader, "leader") < 0
        || check_hands_cards(s->t, hands) < 0 || check_acc(acc) < 0)
        return NULL;
    int v = s_boundary(s, hands, leader, acc, mine_won > 0, others_won > 0, -1, s->t->total + 1);
    if (v == ERR_V) return NULL;
    return PyLong_FromLong(v);
}

static PyMemberDef Solver_members[] = {
    {"nodes", T_LONGLONG, offsetof(Solver, nodes), READONLY, "positions searched so far"},
    {"me", T_INT, offsetof(Solver, me), READONLY, "the side whose points are maximised"},
    {NULL}};

static PyMethodDef Solver_methods[] = {
    {"root_values", (PyCFunction)Solver_root_values, METH_VARARGS,
     "root_values(hands, leader, trick, acc, mine_won, others_won, cands) -> {card: value}"},
    {"lead_value", (PyCFunction)Solver_lead_value, METH_VARARGS,
     "lead_value(hands, leader, acc, mine_won, others_won) -> value"},
    {NULL}};

static PyMethodDef Tables_methods[] = {
    {"policy", (PyCFunction)Tables_policy, METH_VARARGS,
     "policy(ruff_lead=0, ruff_points=0): the rules of thumb, a callable"},
    {"finish", (PyCFunction)Tables_finish, METH_VARARGS,
     "finish(hands, leader, trick, pts, won, policy, first=-1, stop=0, at=None)"},
    {"solver", (PyCFunction)Tables_solver, METH_VARARGS,
     "solver(me, deadline=inf, node_limit=inf): an exact solver with its own table"},
    {"legal_mask", (PyCFunction)Tables_legal_mask, METH_VARARGS, "legal_mask(hand, led)"},
    {"policy_plays", (PyCFunction)Tables_policy_plays, METH_VARARGS,
     "policy_plays(history, leader, trick, hands, me) -> [(legal cards, agreed)]"},
    {NULL}};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine.ai._native.Tables",
    .tp_basicsize = sizeof(Tables),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The tables of one ruleset, for the C kernels",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Tables_init,
    .tp_dealloc = (destructor)Tables_dealloc,
    .tp_methods = Tables_methods,
};

static PyTypeObject PolicyType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine.ai._native.Policy",
    .tp_basicsize = sizeof(Policy),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The rules of thumb: policy(hands, seat, leader, trick, legal) -> card",
    .tp_call = (ternaryfunc)Policy_call,
    .tp_dealloc = (destructor)Policy_dealloc,
    .tp_members = Policy_members,
};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine.ai._native.Solver",
    .tp_basicsize = sizeof(Solver),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The exact open-hand solver (engine/ai/solver.py) in C",
    .tp_dealloc = (destructor)Solver_dealloc,
    .tp_methods = Solver_methods,
    .tp_members = Solver_members,
};


/* --- drawing a deal of the hidden cards (worlds.py: _deal) ------------------- */

#define MAXH 8

/* deal(allowed, cap, unseen, getrandbits, random) -> the cards given to each
 * holder, or None: worlds._deal from its shuffle on, the same calls of the
 * Random's methods in the same order (so the same deals from the same seed). */
static PyObject *py_deal(PyObject *self, PyObject *args) {
    PyObject *allowed_o, *cap_o, *unseen_o, *getrandbits, *rnd;
    if (!PyArg_ParseTuple(args, "OOOOO", &allowed_o, &cap_o, &unseen_o, &getrandbits, &rnd))
        return NULL;
    u128 allowed[MAXH], got[MAXH], unseen;
    int cap[MAXH], cards[MAXC], sorted[MAXC];
    Py_ssize_t nh = 0, k = 0, nc = 0;
    if (seq_masks(allowed_o, allowed, MAXH, &nh, "allowed") < 0) return NULL;
    if (seq_ints(cap_o, cap, MAXH, &k, "cap") < 0) return NULL;
    if (k != nh) {
        PyErr_SetString(PyExc_ValueError, "allowed and cap: one entry a holder");
        return NULL;
    }
    if (to_mask(unseen_o, &unseen) < 0) return NULL;
    for (u128 m = unseen; m; m &= m - 1) cards[nc++] = low_bit(m);
    /* random.shuffle (CPython 3.11+): for i from the end, j = _randbelow(i + 1) by
       getrandbits(k) drawn until below, k the bit length of i + 1 */
    for (Py_ssize_t i = nc - 1; i > 0; i--) {
        unsigned long long n1 = (unsigned long long)i + 1;
        int bits = 64 - __builtin_clzll(n1);
        unsigned long long r;
        do {
            PyObject *x = PyObject_CallFunction(getrandbits, "i", bits);
            if (!x) return NULL;
            r = PyLong_AsUnsignedLongLong(x);
            Py_DECREF(x);
            if (r == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
        } while (r >= n1);
        int tmp = cards[i];
        cards[i] = cards[r];
        cards[r] = tmp;
    }
    int key[MAXC];
    for (Py_ssize_t j = 0; j < nc; j++) {
        int n = 0;
        for (Py_ssize_t i = 0; i < nh; i++) n += (int)((allowed[i] >> cards[j]) & 1);
        key[j] = n;
    }
    /* a stable sort by how many holders may take the card (Python's sort by that key) */
    int m = 0;
    for (int v = 0; v <= nh; v++)
        for (Py_ssize_t j = 0; j < nc; j++)
            if (key[j] == v) sorted[m++] = cards[j];
    for (Py_ssize_t i = 0; i < nh; i++) got[i] = 0;
    for (int j = 0; j < m; j++) {
        int c = sorted[j];
        long total = 0;
        for (Py_ssize_t i = 0; i < nh; i++)
            if ((allowed[i] >> c) & 1) total += cap[i];
        if (total == 0) Py_RETURN_NONE;
        PyObject *x = PyObject_CallNoArgs(rnd);
        if (!x) return NULL;
        double r = PyFloat_AsDouble(x);
        Py_DECREF(x);
        if (r == -1.0 && PyErr_Occurred()) return NULL;
        r = r * (double)total;
        Py_ssize_t pick = -1;
        for (Py_ssize_t i = 0; i < nh; i++) {
            if (((allowed[i] >> c) & 1) && cap[i]) {
                pick = i;
                r -= cap[i];
                if (r < 0) break;
            }
        }
        got[pick] |= BIT(c);
        cap[pick] -= 1;
    }
    PyObject *out = PyList_New(nh);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < nh; i++) {
        PyObject *v = from_mask(got[i]);
        if (!v) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

static PyMethodDef module_methods[] = {
    {"deal", py_deal, METH_VARARGS,
     "deal(allowed, cap, unseen, getrandbits, random) -> each holder's cards, or None"},
    {NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.ai._native",
    "The AI's hot kernels in C (see engine/ai/native.py).", -1, module_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__native(void) {
    if (PyType_Ready(&TablesType) < 0 || PyType_Ready(&PolicyType) < 0
        || PyType_Ready(&SolverType) < 0)
        return NULL;
    py_64 = PyLong_FromLong(64);
    py_zero = PyLong_FromLong(0);
    PyObject *one = PyLong_FromLong(1), *n128 = PyLong_FromLong(128);
    py_mask_end = one && n128 ? PyNumber_Lshift(one, n128) : NULL;
    Py_XDECREF(one);
    Py_XDECREF(n128);
    PyObject *time_mod = PyImport_ImportModule("time");
    py_monotonic = time_mod ? PyObject_GetAttrString(time_mod, "monotonic") : NULL;
    Py_XDECREF(time_mod);
    if (!py_64 || !py_zero || !py_mask_end || !py_monotonic) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    PyTypeObject *types[] = {&TablesType, &PolicyType, &SolverType};
    const char *names[] = {"Tables", "Policy", "Solver"};
    for (int i = 0; i < 3; i++) {
        Py_INCREF(types[i]);
        if (PyModule_AddObject(m, names[i], (PyObject *)types[i]) < 0) {
            Py_DECREF(types[i]);
            Py_DECREF(m);
            return NULL;
        }
    }
    return m;
}
