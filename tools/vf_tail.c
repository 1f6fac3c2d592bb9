/* cudafilters tool: the conversion the planner appends to the chain. */
#include "vf_tail.h"

#include <libavutil/pixdesc.h>

#include "encoder.h"
#include "pixfmt.h"

bool cli_vf_tail_covers(cf_format from, cf_format to)
{
    const cf_filter_desc *d = cf_filter_registry_find("convert");
    if (!d || from == to || !cf_filter_desc_accepts(d, from))
        return false;
    cf_filter *f = cf_filter_new("convert");
    if (!f)
        return false;
    cf_format outs[CF_FORMAT_COUNT];
    int n = cf_filter_get_output_formats(f, from, outs, CF_FORMAT_COUNT);
    cf_filter_free(&f);
    for (int i = 0; i < n && i < CF_FORMAT_COUNT; i++)
        if (outs[i] == to)
            return true;
    return false;
}

cf_format cli_vf_tail_target(const AVCodec *codec, cf_format from)
{
    cf_format acc[CF_FORMAT_COUNT];
    int n = cli_encoder_formats(codec, acc);
    enum AVPixelFormat list[CF_FORMAT_COUNT + 1];
    int k = 0;
    for (int i = 0; i < n; i++)
        if (cli_vf_tail_covers(from, acc[i]))
            list[k++] = cli_format_to_av(acc[i]);
    list[k] = AV_PIX_FMT_NONE;
    if (k == 0)
        return CF_FORMAT_UNKNOWN;
    enum AVPixelFormat src = cli_format_to_av(from);
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(src);
    int alpha = d && (d->flags & AV_PIX_FMT_FLAG_ALPHA);
    return cli_format_from_av(avcodec_find_best_pix_fmt_of_list(list, src, alpha, NULL), NULL);
}

int cli_vf_set_tail(cli_vf *vf, cf_format to, cli_err *err)
{
    /* The scheduler runs the tail it had: it goes first (cli_vf_start
     * makes the next one). */
    cf_scheduler_destroy(&vf->sched);
    cf_filter_free(&vf->tail);
    if (to == CF_FORMAT_UNKNOWN)
        return 0;
    cf_format from = cli_vf_output(vf);
    if (!cli_vf_tail_covers(from, to))
        return cli_fail(err, AVERROR(EINVAL), "internal: convert does not make %s from %s",
                        cf_format_name(to), cf_format_name(from));
    vf->tail = cf_filter_new("convert");
    if (!vf->tail)
        return cli_fail_cf(err, "convert");
    if (cf_filter_set_cpu_threads(vf->tail, vf->threads) != CF_OK) {
        cf_filter_free(&vf->tail);
        return cli_fail_cf(err, "convert");
    }
    vf->out[vf->n] = to;
    vf->user_range[vf->n] = false;
    vf->user_roles[vf->n] = 0;
    cli_vf_apply_stream(vf);
    return 0;
}
