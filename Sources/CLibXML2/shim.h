// libxml2's pull reader: the Metalink parser reads documents through it.
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, and its headers would then bring the system's ICU headers into
// the same compilation as the ICU copy inside Swift's Foundation, whose declarations differ; haul
// never touches the ICU converters those headers describe.
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
