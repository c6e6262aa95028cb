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

/// libxml2's generic error channel, variadic (so not writable in Swift): discards the message.
static inline void fieldguide_xml_discard(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

/// Sends this thread's generic libxml2 errors nowhere. Errors with a parser reach the reader's
/// SAX2 handler; a few are printed straight to standard error otherwise ("xmlParseChunk:
/// encoder error"), which a stage's output must not carry.
static inline void fieldguide_xml_quiet_generic_errors(void) {
    xmlSetGenericErrorFunc(NULL, fieldguide_xml_discard);
}
#endif
