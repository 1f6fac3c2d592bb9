/* cudafilters tool: JSON text of a json-glib node, numbers written short.
 *
 * json-glib 1.6 (Debian 12) writes every double with 17 significant digits
 * (29.97 as 29.969999999999999), and writes NaN and infinities, which JSON
 * has not. This writer gives the same compact text otherwise (members in
 * their order, no spaces), with each double in the fewest digits that read
 * back as the same double, and null for a double that is not finite. */
#ifndef CLI_JSON_TEXT_H
#define CLI_JSON_TEXT_H

#include <json-glib/json-glib.h>

/* `node` (not taken) as one line of JSON, without a newline (g_free it). */
char *cli_json_text(JsonNode *node);

#endif
