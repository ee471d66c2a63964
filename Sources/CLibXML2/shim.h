#include <libxml/xmlversion.h>
/* Debian builds libxml2 with ICU, and then its encoding.h includes the system's
 * ICU headers. Swift's Foundation carries its own ICU, whose UErrorCode differs:
 * a module that sees both fails to compile. Nothing here uses libxml2's ICU
 * converters (only pointers to its encoding handlers pass through), so leave
 * them out. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
