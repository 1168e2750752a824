/* stat_rows: the statistic rows of a comparison (Min, Amean/Hmean,
 * Stddev, CoeffVar, Max, BAmean-95): their names and keys, a summary's
 * value of each, the --stats list read, and the rows a model shows. */
#include "config.h"
#include "compare/model.h"
#include "lib/error.h"

#include <math.h>
#include <string.h>
#include <strings.h>

const struct cmp_stat_desc cmp_stats[CMP_NSTATS] = {
	[CMP_MIN] = { .lower_name = "Min", .higher_name = "Min", .key = "min" },
	[CMP_MEAN] = { .lower_name = "Amean", .higher_name = "Hmean", .key = "mean" },
	[CMP_STDDEV] = { .lower_name = "Stddev", .higher_name = "HStddev", .key = "stddev",
			 .spread = 1 },
	[CMP_COEFFVAR] = { .lower_name = "CoeffVar", .higher_name = "HCoeffVar",
			   .key = "coeffvar", .spread = 1 },
	[CMP_MAX] = { .lower_name = "Max", .higher_name = "Max", .key = "max" },
	[CMP_BMEAN95] = { .lower_name = "BAmean-95", .higher_name = "BHmean-95",
			  .key = "bmean95" },
};

double cmp_stat_value(const struct stats_summary *s, enum cmp_stat st)
{
	switch (st) {
	case CMP_MIN: return s->min;
	case CMP_MEAN: return s->mean;
	case CMP_STDDEV: return s->spread;
	case CMP_COEFFVAR: return s->cv;
	case CMP_MAX: return s->max;
	case CMP_BMEAN95: return s->bmean95;
	case CMP_NSTATS: break;
	}
	return NAN;
}

const char *cmp_stat_name(enum cmp_stat st, int higher_better)
{
	return higher_better ? cmp_stats[st].higher_name : cmp_stats[st].lower_name;
}

/* ---- the statistic rows shown ---- */

static const struct {
	const char *name;
	enum cmp_stat stat;
} stat_names[] = {
	{ "min", CMP_MIN },
	{ "mean", CMP_MEAN }, { "amean", CMP_MEAN }, { "hmean", CMP_MEAN },
	{ "stddev", CMP_STDDEV }, { "hstddev", CMP_STDDEV },
	{ "coeffvar", CMP_COEFFVAR }, { "hcoeffvar", CMP_COEFFVAR },
	{ "max", CMP_MAX },
	{ "bmean-95", CMP_BMEAN95 }, { "bamean-95", CMP_BMEAN95 },
	{ "bhmean-95", CMP_BMEAN95 }, { "bmean95", CMP_BMEAN95 },
};

int cmp_stats_parse(const char *list, enum cmp_stat stats[CMP_NSTATS])
{
	size_t n = 0;

	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ","), i;
		int seen = 0;

		for (i = 0; i < sizeof(stat_names) / sizeof(stat_names[0]); i++)
			if (strlen(stat_names[i].name) == len &&
			    !strncasecmp(stat_names[i].name, p, len))
				break;
		if (i == sizeof(stat_names) / sizeof(stat_names[0]))
			return error("unknown statistic '%.*s' in --stats (expected min, amean, "
				     "hmean, stddev, coeffvar, max or bmean-95)", (int)len, p);
		for (size_t k = 0; k < n; k++)
			if (stats[k] == stat_names[i].stat)
				seen = 1;
		if (!seen)
			stats[n++] = stat_names[i].stat;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!n)
		return error("--stats needs at least one statistic (e.g. amean,stddev)");
	return (int)n;
}

size_t cmp_stats_shown(const struct cmp_model *m, enum cmp_stat stats[CMP_NSTATS])
{
	if (m->nstats) {
		memcpy(stats, m->stats, m->nstats * sizeof(*stats));
		return m->nstats;
	}
	for (int st = 0; st < CMP_NSTATS; st++)
		stats[st] = st;
	return CMP_NSTATS;
}
