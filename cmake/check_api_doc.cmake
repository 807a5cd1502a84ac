# Fails unless docs/api.md has a row for every public name the headers declare, so the API
# reference cannot go stale: a header that gains a public function or type without a row fails
# this check, and the message names each missing name, its header and the heading to add it
# under. It also fails when a row cites a header that no longer declares the name, and when a
# row names something no header declares publicly any more.
#
# Usage: cmake -DINCLUDE_DIR=<repo>/include -DAPI_DOC=<repo>/docs/api.md -P check_api_doc.cmake
#        Add -DLIST=ON to print every public name found (kind, name, headers) instead.
#
# It needs nothing but CMake. It reads include/gpucalc/**/*.hpp and
#   1. removes string and character literals, // and /* */ comments, and preprocessor lines
#      (so the bodies of #define'd macros are not read: a name only a macro invocation declares
#      is not seen; both branches of an #if are read);
#   2. marks each `namespace N {` (and `inline namespace N {`) so its braces are kept;
#   3. collapses every other {...}, (...) and [...], innermost first, to a placeholder, so
#      function bodies, struct bodies, parameter lists with default arguments, initializers and
#      lambdas vanish and only namespace-scope declarations are left; then collapses <...>
#      (template parameter and argument lists) the same way;
#   4. splits what is left into declarations at `;`, at the end of a function body, at
#      namespace boundaries and after an ALL_CAPS macro invocation such as
#      GPUCALC_DETAIL_LITERAL(...), tracks the namespace each is in, and classifies it.
# A declaration is public when it is inside namespace gpucalc and no enclosing namespace is
# `detail` or starts with `detail_`. Files under detail/ are scanned by the same rule.
#
# Recognised (at namespace scope, however the declaration is split over lines):
#   - functions and function templates, declared or defined, whatever precedes the name:
#     `template <...>` on the line before, `inline`, `constexpr`, `GPUCALC_DETAIL_HOT` and
#     other macros, `[[noreturn]]`, a return type spanning lines or with template arguments,
#     `auto f(...) -> T`, default arguments with braces; overloads count once;
#   - `struct`, `class` and `union` definitions and forward declarations, and their templates;
#   - `enum` and `enum class` (also with an underlying type);
#   - type aliases (`using name = ...;`, also templated), `typedef`, and namespace aliases;
#   - variables and variable templates (`inline constexpr T name = ...;`, `... name{...};`,
#     `name[] = {...}`).
# Skipped on purpose:
#   - operators, including `operator<<` and the user-defined literals (operator""_GiB), and
#     every `to_string` overload: api.md mentions them once, under "Units and printing";
#   - explicit and partial specializations (`struct hash<T>`), explicit instantiations,
#     `using namespace`, using-declarations (`using std::x;`), `friend` declarations,
#     `static_assert`, and out-of-class member definitions (`a::b(...)`): none introduces a
#     new name;
#   - members of structs and classes: api.md lists the type, and its page explains the fields;
#   - the variables in catalog/*.hpp, the catalog entries (gpus.hpp's `h100_sxm`): api.md lists
#     each catalog with the kinds of entries it holds, so instead each catalog header must be
#     cited by a row. Functions and types declared in a catalog header are checked one by one.
# A declaration it cannot classify, or brackets it cannot match, is an error naming the header
# and the text, so a new code style fails loudly here instead of hiding a name (raw string
# literals, for one, are not recognised): teach this script the new form.
#
# A row documents a name when its first cell holds the name in backticks, alone (`fits`) or
# qualified (`formats::fp64`), beside any others it shares the row with, and the row cites one
# of the name's headers as `gpucalc/<path>.hpp`. A list item that starts with names in
# backticks counts as a row too.

cmake_minimum_required(VERSION 3.25)
if(NOT INCLUDE_DIR OR NOT API_DOC)
  message(FATAL_ERROR "usage: cmake -DINCLUDE_DIR=... -DAPI_DOC=... [-DLIST=ON] -P check_api_doc.cmake")
endif()

get_filename_component(INCLUDE_DIR "${INCLUDE_DIR}" ABSOLUTE)
set(id "[A-Za-z_][A-Za-z0-9_]*")

# Reads one header and sets out_var to its namespace-scope declarations as a list, with the
# namespace markers @NS:name@ and @END@ kept as elements of their own.
function(gpucalc_declarations header out_var)
  file(READ "${header}" text)
  # 1. Strings (on one line, with escapes), character literals, comments, preprocessor lines.
  string(REGEX REPLACE "\\\\\n" " " text "${text}")
  string(REGEX REPLACE "\"([^\"\\\\\n]|\\\\.)*\"" "\"\"" text "${text}")
  string(REGEX REPLACE "'([^'\\\\\n0-9]|\\\\.)'" "' '" text "${text}")
  string(REGEX REPLACE "//[^\n]*" "" text "${text}")
  string(ASCII 1 open)
  string(ASCII 2 close)
  string(REPLACE "/*" "${open}" text "${text}")
  string(REPLACE "*/" "${close}" text "${text}")
  string(REGEX REPLACE "${open}[^${close}]*${close}" " " text "${text}")
  string(REGEX REPLACE "(^|\n)[ \t]*#[^\n]*" "\n" text "${text}")
  string(REGEX REPLACE "[ \t\r\n]+" " " text "${text}")
  # [[attributes]] say nothing about the name.
  string(REGEX REPLACE "\\[\\[[^][]*\\]\\]" " " text "${text}")
  # 2. Namespaces keep their braces: the opening one becomes a marker.
  string(REGEX REPLACE "(inline +)?namespace +(${id}(::${id})*) *\\{" ";@NS:\\2@;" text "${text}")
  string(REGEX REPLACE "namespace *\\{" ";@NS:(anonymous)@;" text "${text}")
  # 3. Collapse every other bracket pair, innermost first.
  while(TRUE)
    set(before "${text}")
    string(REGEX REPLACE "\\{[^][{}()]*\\}" "@B@" text "${text}")
    string(REGEX REPLACE "\\([^][{}()]*\\)" "@P@" text "${text}")
    string(REGEX REPLACE "\\[[^][{}()]*\\]" "@S@" text "${text}")
    if(text STREQUAL before)
      break()
    endif()
  endwhile()
  if(text MATCHES "[][(){]")
    string(REGEX MATCH "[^;]*[][(){][^;]*" where "${text}")
    message(FATAL_ERROR "check_api_doc: cannot match the brackets in ${header} near: ${where}")
  endif()
  # Operators (operator<<, operator==, operator""_GiB, conversions) before the angle brackets.
  string(REGEX REPLACE "operator *[^@]*@P@" "@OP@@P@" text "${text}")
  string(REPLACE "->" "@AR@" text "${text}")
  while(TRUE)
    set(before "${text}")
    string(REGEX REPLACE "<[^<>;]*>" "@T@" text "${text}")
    if(text STREQUAL before)
      break()
    endif()
  endwhile()
  # Lambdas (as in `inline constexpr gpu_spec t4 = [] { ... }();`) are one token.
  string(REGEX REPLACE "= *@S@ *(@P@)?[^;@=]*(@AR@[^;@=]*(@T@[^;@=]*)*)?@B@" "= @LAMBDA@" text "${text}")
  # 4. Declarations end at ';', at a namespace's closing brace, at the end of a function body
  #    (a body follows a parameter list and its qualifiers or trailing return type) and after an
  #    ALL_CAPS macro invocation.
  string(REPLACE "}" ";@END@;" text "${text}")
  string(REGEX REPLACE "(@P@([^;@]|@P@|@T@|@AR@)*)@B@" "\\1@B@;" text "${text}")
  string(REGEX REPLACE "(^|[^A-Za-z0-9_])([A-Z][A-Z0-9_]*) *@P@" "\\1\\2@MACRO@;" text "${text}")
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE headers RELATIVE "${INCLUDE_DIR}" "${INCLUDE_DIR}/gpucalc/*.hpp")
list(SORT headers)
set(public_names "")   # each name once; kind_<name>, ns_<name> and headers_<name> describe it
set(public_namespaces "")
set(catalog_variables "")
set(catalog_headers "")
set(unparsed "")
foreach(header IN LISTS headers)
  string(REGEX REPLACE "^gpucalc/" "" short "${header}")
  set(is_catalog FALSE)
  if(short MATCHES "^catalog/")
    set(is_catalog TRUE)
    list(APPEND catalog_headers "${short}")
  endif()
  gpucalc_declarations("${INCLUDE_DIR}/${header}" decls)
  set(namespaces "")
  foreach(decl IN LISTS decls)
    string(STRIP "${decl}" decl)
    if(decl STREQUAL "")
      continue()
    endif()
    if(decl MATCHES "^@NS:(.*)@$")
      list(APPEND namespaces "${CMAKE_MATCH_1}")
      continue()
    endif()
    if(decl STREQUAL "@END@")
      list(POP_BACK namespaces)
      continue()
    endif()
    # Public: inside gpucalc, and inside no detail namespace.
    string(JOIN "::" path ${namespaces})
    if(NOT path MATCHES "^gpucalc(::|$)" OR path MATCHES "(^|::)(detail|detail_[A-Za-z0-9_]*|\\(anonymous\\))(::|$)")
      continue()
    endif()
    foreach(namespace IN LISTS namespaces)
      if(NOT namespace IN_LIST public_namespaces)
        list(APPEND public_namespaces "${namespace}")  # an entry may name one (gpucalc::literals)
      endif()
    endforeach()
    # What precedes the declaration proper: templates, attributes and macros without arguments.
    string(REGEX REPLACE "^(template *@T@ *|[A-Z][A-Z0-9_]+ +|@S@ *)+" "" d "${decl}")
    set(name "")
    set(kind "")
    if(d MATCHES "@MACRO@$" OR d MATCHES "^(@B@|@P@|@LAMBDA@|@MACRO@| )*$")
      continue()  # a macro invocation, or what a split left of an initializer
    elseif(d MATCHES "^using +namespace " OR d MATCHES "^using +[A-Za-z0-9_:@]+$"
           OR d MATCHES "^friend " OR d MATCHES "^static_assert *@P@"
           OR d MATCHES "^(extern +)?template +(class|struct|union|[^@]*@P@)")
      continue()  # no new name: a using-declaration, a static_assert, an explicit instantiation
    elseif(d MATCHES "^namespace +(${id}) *=")
      set(name "${CMAKE_MATCH_1}")
      set(kind "namespace alias")
    elseif(d MATCHES "^using +(${id}) *=")
      set(name "${CMAKE_MATCH_1}")
      set(kind "alias")
    elseif(d MATCHES "^typedef .*[^A-Za-z0-9_](${id}) *(@S@)*$")
      set(name "${CMAKE_MATCH_1}")
      set(kind "alias")
    elseif(d MATCHES "(^|[^A-Za-z0-9_])enum( +class| +struct)? +(${id})( *:[^@]*(@T@[^@]*)*)? *(@B@)?$")
      set(name "${CMAKE_MATCH_3}")
      set(kind "enum")
    elseif(d MATCHES "(^|[^A-Za-z0-9_])(struct|class|union) +(${id})( *final)?( *@T@)?( *:[^@]*(@T@[^@]*)*)? *(@B@)?$")
      if(CMAKE_MATCH_5)
        continue()  # a specialization: no new name
      endif()
      set(name "${CMAKE_MATCH_3}")
      set(kind "type")
    elseif(d MATCHES "@OP@")
      continue()  # an operator
    elseif(d MATCHES "^([^=@]|@T@|@S@)*[^A-Za-z0-9_:](${id}) *(@S@ *)*(=|@B@$)")
      # A variable: `name = ...`, `name[] = ...` or `name{...}` before any parameter list.
      set(name "${CMAKE_MATCH_2}")
      set(kind "variable")
      if(is_catalog)
        list(APPEND catalog_variables "${name}")  # a row may name it, but need not
        continue()  # a catalog entry: api.md lists the catalog header instead
      endif()
    else()
      # A function: the identifier before the first parameter list that is not decltype(...),
      # noexcept(...), alignas(...) or __attribute__((...)).
      string(REGEX REPLACE "(decltype|noexcept|alignas|__attribute__|sizeof) *@P@" "@X@" f "${d}")
      # (Two ifs: an if() with OR evaluates both sides and keeps the last CMAKE_MATCH_n.)
      if(f MATCHES "^([^@]|@T@|@X@|@S@)*[^A-Za-z0-9_:](${id}) *@P@")
        set(name "${CMAKE_MATCH_2}")
      elseif(f MATCHES "^(${id}) *@P@")
        set(name "${CMAKE_MATCH_1}")
      endif()
      if(name)
        set(kind "function")
        if(f MATCHES "::${name} *@P@")
          continue()  # an out-of-class member definition
        endif()
        if(name STREQUAL "to_string")
          continue()  # one per enum and printable type: mentioned once in api.md
        endif()
      endif()
    endif()
    if(name STREQUAL "")
      list(APPEND unparsed "${short}: ${decl}")
      continue()
    endif()
    if(NOT name IN_LIST public_names)
      list(APPEND public_names "${name}")
      set(kind_${name} "${kind}")
      string(REGEX REPLACE "^gpucalc(::)?" "" ns_${name} "${path}")
    endif()
    if(NOT "gpucalc/${short}" IN_LIST headers_${name})
      list(APPEND headers_${name} "gpucalc/${short}")
    endif()
  endforeach()
  if(namespaces)
    message(FATAL_ERROR "check_api_doc: namespaces left open at the end of ${header}: ${namespaces}")
  endif()
endforeach()

if(unparsed)
  list(JOIN unparsed "\n  " text)
  message(FATAL_ERROR "check_api_doc: cannot classify these namespace-scope declarations "
                      "(teach cmake/check_api_doc.cmake their form):\n  ${text}")
endif()

list(LENGTH public_names count)
list(LENGTH catalog_headers catalog_count)
if(LIST)
  foreach(name IN LISTS public_names)
    set(qualified "${name}")
    if(ns_${name})
      set(qualified "${ns_${name}}::${name}")
    endif()
    list(JOIN headers_${name} " " where)
    message("${kind_${name}}\t${qualified}\t${where}")
  endforeach()
  message("${count} public names; ${catalog_count} catalog headers: ${catalog_headers}")
  return()
endif()

# The page, with CMake's list characters masked so that it can be split into lines.
file(READ "${API_DOC}" doc)
string(REPLACE ";" "@SEMI@" doc "${doc}")
string(REPLACE "[" "@LSQ@" doc "${doc}")
string(REPLACE "]" "@RSQ@" doc "${doc}")
string(REPLACE "\n" ";" lines "${doc}")

# An entry is a table row whose first cell holds names in backticks (or a list item that starts
# with them): `fits`, or `formats::fp64`, `formats::fp32`. For each name it names, the headers
# its row cites; for each header, the heading of the first row citing it, to say where a missing
# name goes.
set(section "(before the first section)")
set(subsection "")
set(entries "")
set(cited_headers "")
foreach(line IN LISTS lines)
  if(line MATCHES "^(##|###) +(.*)$")
    set(heading "${CMAKE_MATCH_2}")
    string(REPLACE "@LSQ@" "[" heading "${heading}")
    string(REPLACE "@RSQ@" "]" heading "${heading}")
    string(REPLACE "@SEMI@" ";" heading "${heading}")
    if(CMAKE_MATCH_1 STREQUAL "##")
      set(section "\"## ${heading}\"")
      set(subsection "")
    else()
      set(subsection ", \"### ${heading}\"")
    endif()
    continue()
  endif()
  set(first "")
  if(line MATCHES "^\\| *([^|]*)\\|")
    set(first "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^[-*] +(`[^`]*`( *, *`[^`]*`)*)")
    set(first "${CMAKE_MATCH_1}")
  endif()
  string(REGEX MATCHALL "`(${id}::)*${id}`" tokens "${first}")
  if(NOT tokens)
    continue()
  endif()
  string(REGEX MATCHALL "gpucalc/[A-Za-z0-9_/]+\\.hpp" cited "${line}")
  list(APPEND cited_headers ${cited})
  foreach(header IN LISTS cited)
    string(MAKE_C_IDENTIFIER "${header}" key)
    if(NOT DEFINED section_${key})
      set(section_${key} "${section}${subsection}")
    endif()
  endforeach()
  foreach(token IN LISTS tokens)
    string(REGEX REPLACE "^`(${id}::)*(${id})`$" "\\2" name "${token}")
    list(APPEND entries "${name}")
    list(APPEND cited_${name} ${cited})
  endforeach()
endforeach()

# Where a name's row belongs: under the heading that cites its header, or a hint for a new one.
function(gpucalc_where headers out_var)
  foreach(header IN LISTS headers)
    string(MAKE_C_IDENTIFIER "${header}" key)
    if(DEFINED section_${key})
      set(${out_var} "under ${section_${key}}, with the other names from ${header}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out_var} "under the heading for the question it answers (no row cites its header yet)"
      PARENT_SCOPE)
endfunction()

set(missing "")
set(uncited "")
foreach(name IN LISTS public_names)
  set(headers "${headers_${name}}")
  list(JOIN headers " and " header_text)
  if(NOT name IN_LIST entries)
    gpucalc_where("${headers}" where)
    set(in_namespace "")
    if(ns_${name})
      set(in_namespace " in gpucalc::${ns_${name}}")
    endif()
    list(APPEND missing "`${name}` (${kind_${name}}${in_namespace}, ${header_text}): ${where}")
    continue()
  endif()
  # Its row cites one of its headers, so the header column cannot go stale either.
  set(cites_header FALSE)
  foreach(header IN LISTS headers)
    if(header IN_LIST cited_${name})
      set(cites_header TRUE)
    endif()
  endforeach()
  if(NOT cites_header)
    list(JOIN cited_${name} " and " cited_text)
    if(cited_text STREQUAL "")
      set(cited_text "no header")
    endif()
    list(APPEND uncited "`${name}`: its row cites ${cited_text}, but it is declared in ${header_text}")
  endif()
endforeach()
set(missing_catalogs "")
foreach(short IN LISTS catalog_headers)
  if(NOT "gpucalc/${short}" IN_LIST cited_headers)
    list(APPEND missing_catalogs "gpucalc/${short}")
  endif()
endforeach()
set(stale "")
foreach(name IN LISTS entries)
  if(NOT name IN_LIST public_names AND NOT name IN_LIST public_namespaces
     AND NOT name IN_LIST catalog_variables AND NOT name STREQUAL "to_string"
     AND NOT "`${name}`" IN_LIST stale)
    list(APPEND stale "`${name}`")
  endif()
endforeach()

set(problems "")
if(missing)
  list(LENGTH missing n)
  list(JOIN missing "\n  " text)
  string(APPEND problems
    "${API_DOC} has no row for ${n} of the ${count} public names the headers declare. Add a row "
    "for each, | `name` | what it answers in a few words | `gpucalc/<its header>.hpp` | "
    "(overloads share one row), where given:\n  ${text}\n")
endif()
if(missing_catalogs)
  list(JOIN missing_catalogs ", " text)
  string(APPEND problems "No row cites these catalog headers. Add a row for each under "
    "\"### Catalogs\", naming its `catalog::all_...` array or an entry, with the kinds of "
    "entries it holds: ${text}\n")
endif()
if(uncited)
  list(JOIN uncited "\n  " text)
  string(APPEND problems "These rows cite the wrong header; cite the one given:\n  ${text}\n")
endif()
if(stale)
  list(JOIN stale ", " text)
  string(APPEND problems "These rows name what no header declares publicly any more; remove or "
                         "rename them: ${text}\n")
endif()
if(problems)
  message(FATAL_ERROR "${problems}"
    "(A name that should be private belongs in a `namespace detail`. If the scan misread a "
    "declaration, fix cmake/check_api_doc.cmake; `-DLIST=ON` prints what it found.)")
endif()
message(STATUS "docs/api.md has a row for each of the ${count} public names and "
               "${catalog_count} catalog headers")
