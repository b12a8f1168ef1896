/*
 * cli_families.c - checks a --families / --family list against the
 * catalog before a run, so a typo ("p5x") is a usage error with
 * suggestions instead of an empty result (exit 3 with 0 candidates).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"
#include "ec2fit/filter.h"

typedef struct {
    const char *name;
    size_t prefix, dist;
} fam_score;

static int by_score(const void *pa, const void *pb)
{
    const fam_score *a = pa, *b = pb;
    if (a->prefix != b->prefix)
        return a->prefix > b->prefix ? -1 : 1;
    if (a->dist != b->dist)
        return a->dist < b->dist ? -1 : 1;
    return strcmp(a->name, b->name);
}

static size_t common_prefix(const char *a, const char *b)
{
    size_t n = 0;
    while (a[n] && b[n] && (a[n] | 0x20) == (b[n] | 0x20))
        n++;
    return n;
}

static bool matches(const char *pat, const char *family, bool glob)
{
    return glob ? ecf_family_matches(pat, family) : strcasecmp(pat, family) == 0;
}

int cli_check_families(const ecf_catalog *cat, const char *const *pats,
                       bool glob, const char *flag, ecf_err *err)
{
    size_t n = ecf_catalog_count(cat), i, j, nf = 0, ns = 0;
    const char **fams;
    fam_score *sc;
    int rc = 0;

    if (!pats)
        return 0;
    /* The catalog is sorted by type, so equal families are adjacent. */
    fams = ecf_xcalloc(n ? n : 1, sizeof(*fams));
    for (i = 0; i < n; i++) {
        const char *f = ecf_catalog_at(cat, i)->family;
        if (nf == 0 || strcmp(fams[nf - 1], f) != 0) {
            for (j = 0; j < nf && strcmp(fams[j], f) != 0; j++)
                ;
            if (j == nf)
                fams[nf++] = f;
        }
    }
    sc = ecf_xcalloc(nf ? nf : 1, sizeof(*sc));
    for (; *pats && rc == 0; pats++) {
        const char *p = *pats;
        for (i = 0; i < nf && !matches(p, fams[i], glob); i++)
            ;
        if (i < nf)
            continue;
        /* Suggest families sharing the longest prefix with the pattern,
         * closest first; with no shared prefix, only near misses. */
        if (glob && strpbrk(p, "*?[")) {
            rc = ecf_err_set(err, ECF_EINVAL, "%s: no family matches '%s'",
                             flag, p);
            break;
        }
        for (ns = 0, i = 0; i < nf; i++) {
            fam_score s = {fams[i], common_prefix(p, fams[i]),
                           ecf_parse_edit_distance(p, fams[i])};
            if (s.prefix > 0 || s.dist <= 2)
                sc[ns++] = s;
        }
        qsort(sc, ns, sizeof(*sc), by_score);
        for (i = 1; i < ns && i < 3 && sc[i].prefix == sc[0].prefix; i++)
            ;
        ns = ns ? i : 0;
        if (ns == 0)
            rc = ecf_err_set(err, ECF_EINVAL,
                             "%s: no family matches '%s' (see 'ec2fit list')",
                             flag, p);
        else
            rc = ecf_err_set(err, ECF_EINVAL,
                             "%s: no family matches '%s' (did you mean "
                             "%s%s%s%s%s?)",
                             flag, p, sc[0].name, ns > 1 ? ", " : "",
                             ns > 1 ? sc[1].name : "", ns > 2 ? ", " : "",
                             ns > 2 ? sc[2].name : "");
    }
    free(sc);
    free(fams);
    return rc;
}
