/* cudafilters tool: interlaced video. */
#include "fields.h"

bool cli_fields_order_is_interlaced(enum AVFieldOrder order)
{
    return order != AV_FIELD_UNKNOWN && order != AV_FIELD_PROGRESSIVE;
}

/* ffprobe's names, which users know from it. */
static const char *order_name(enum AVFieldOrder order, const AVFrame *frame)
{
    switch (order) {
    case AV_FIELD_TT: return "tt";
    case AV_FIELD_BB: return "bb";
    case AV_FIELD_TB: return "tb";
    case AV_FIELD_BT: return "bt";
    default: return frame->top_field_first ? "top field first" : "bottom field first";
    }
}

bool cli_fields_interlaced(const AVFrame *frame, enum AVFieldOrder stream_order)
{
    return frame->interlaced_frame || cli_fields_order_is_interlaced(stream_order);
}

int cli_fields_check(const cli_vf *vf, const AVFrame *frame, enum AVFieldOrder stream_order,
                     cli_err *err)
{
    if (!cli_fields_interlaced(frame, stream_order))
        return 0;
    for (int i = 0; i < vf->n; i++) {
        const cf_filter_desc *d = cf_filter_get_desc(cf_chain_get(vf->chain, i));
        if (d->flags & CF_FILTER_SPATIAL)
            /* The element's message (plugins/gstcffilter.c), for one rule. */
            return cli_fail(err, AVERROR(EINVAL),
                            "%s cannot filter interlaced video (field order %s): its result "
                            "depends on neighbouring rows, which belong to the other field. "
                            "Deinterlace first (e.g. ffmpeg -vf yadif before cudafilters).",
                            d->name, order_name(stream_order, frame));
    }
    return 0;
}

enum AVFieldOrder cli_fields_output_order(const AVFrame *first, enum AVFieldOrder stream_order,
                                          enum AVCodecID id)
{
    if (cli_fields_order_is_interlaced(stream_order))
        return stream_order;
    if (!first->interlaced_frame)
        return AV_FIELD_PROGRESSIVE;
    if (id == AV_CODEC_ID_MJPEG)
        return first->top_field_first ? AV_FIELD_TT : AV_FIELD_BB;
    return first->top_field_first ? AV_FIELD_TB : AV_FIELD_BT;
}
