// libxml2's pull reader: the Metalink parser reads documents through it.
#include <libxml/xmlreader.h>
