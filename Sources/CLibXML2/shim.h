// libxml2 behind its own module, so no Swift module imports both it and FoundationXML.
#ifndef FIELDGUIDE_CLIBXML2_SHIM_H
#define FIELDGUIDE_CLIBXML2_SHIM_H
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>

/// Reader options for untrusted files: no network (NONET); entity substitution (NOENT), DTD
/// loading (DTDLOAD) and relaxed limits (HUGE) are deliberately left out. CDATA reads as text.
static inline int fieldguide_xml_safe_options(void) {
    return XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA;
}
#endif
