/* pugixml is C++: only CPugiShim, a C++ target, includes it; Swift reads
 * documents through CPugiShim's C functions. */
#ifdef __cplusplus
#include <pugixml.hpp>
#endif
