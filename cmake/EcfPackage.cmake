# Installed documentation and the Debian packages (cpack -G DEB, from a
# Release build directory): ec2fit (the program, component Unspecified) and
# libec2fit-dev (component dev: libec2fit.a, the headers, ec2fit.pc). The layout follows Debian policy so that lintian
# passes at error and warning level (.ci/run checks): stripped binary, man
# page compressed with gzip -9n, /usr/share/doc/ec2fit with a DEP-5
# copyright file and changelog.gz (a native package), dependencies from
# dpkg-shlibdeps plus libcurl, which src/http.c loads with dlopen.
find_program(ECF_GZIP gzip REQUIRED)
set(ECF_DOC_GEN ${CMAKE_BINARY_DIR}/doc)
configure_file(${CMAKE_SOURCE_DIR}/packaging/changelog.in ${ECF_DOC_GEN}/changelog @ONLY)
# -n: no name or time stamp in the header, so the bytes are reproducible
add_custom_command(OUTPUT ${ECF_DOC_GEN}/ec2fit.1.gz ${ECF_DOC_GEN}/changelog.gz
  COMMAND ${ECF_GZIP} -9n -c ${CMAKE_SOURCE_DIR}/docs/ec2fit.1 > ${ECF_DOC_GEN}/ec2fit.1.gz
  COMMAND ${ECF_GZIP} -9n -c ${ECF_DOC_GEN}/changelog > ${ECF_DOC_GEN}/changelog.gz
  DEPENDS ${CMAKE_SOURCE_DIR}/docs/ec2fit.1 ${ECF_DOC_GEN}/changelog
  COMMENT "Compressing the man page and changelog (gzip -9n)")
add_custom_target(ec2fit_docs ALL DEPENDS ${ECF_DOC_GEN}/ec2fit.1.gz ${ECF_DOC_GEN}/changelog.gz)

install(FILES ${ECF_DOC_GEN}/ec2fit.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
# /usr/share/doc/ec2fit: what the man page's SEE ALSO points to
set(ECF_DOCDIR ${CMAKE_INSTALL_DATADIR}/doc/ec2fit)
file(GLOB ECF_DOC_MD ${CMAKE_SOURCE_DIR}/docs/*.md)
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${ECF_DOC_MD}
              ${CMAKE_SOURCE_DIR}/packaging/copyright ${ECF_DOC_GEN}/changelog.gz
        DESTINATION ${ECF_DOCDIR})
# The JSON Schemas are data a client validates against, not documentation:
# /usr/share/ec2fit/schema, which slim images keep (they strip /usr/share/doc).
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/schema
        DESTINATION ${CMAKE_INSTALL_DATADIR}/ec2fit)
# libec2fit-dev's own /usr/share/doc/libec2fit-dev (Debian policy 12.5:
# every binary package carries its copyright file and changelog)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/copyright ${ECF_DOC_GEN}/changelog.gz
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/libec2fit-dev COMPONENT dev)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ec2fit)
set(CPACK_PACKAGE_VENDOR "ec2fit")
set(CPACK_PACKAGE_CONTACT "ec2fit maintainers <maintainers@users.noreply.a-seed-e893510a.example>")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
# The synopsis (first line) of each package is in its component's
# description below: CPACK_PACKAGE_DESCRIPTION_SUMMARY stays CPack's default,
# since CPackDeb would put that one line on top of both packages.
set(CPACK_PACKAGE_DESCRIPTION "ec2fit recommends Amazon EC2 instance types and node counts for machine
learning training, fine-tuning and serving from a model (or a parameter
count), a task and constraints such as a budget or a deadline. It works
offline from an embedded catalog of instance types and prices, and can
refresh prices from AWS. Outputs: table, JSON, CSV, Markdown, Terraform
variables, Karpenter NodePool requirements and an HTML report.")
set(CPACK_STRIP_FILES ON)
# libc, libcjson1 ... from dpkg-shlibdeps; libcurl and libssl3 (libcrypto)
# by hand, since dlopen hides them (CURLOPT_PROTOCOLS_STR needs 7.85.0;
# src/aws/crypto.c loads libcrypto.so.3).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libcurl4 (>= 7.85.0), libssl3")
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/ec2fit/ec2fit")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_SOURCE_DIR}/LICENSE)
# One .deb per component: ec2fit_<v>_<arch>.deb (the program) and
# libec2fit-dev_<v>_<arch>.deb (the library for C and C++ programs,
# docs/library.md). DESTDIR staging, so ec2fit.pc (written at install time
# from CMAKE_INSTALL_PREFIX) says prefix=/usr, not the staging folder.
set(CPACK_INSTALL_CMAKE_PROJECTS "${CMAKE_BINARY_DIR};ec2fit;ALL;/")
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL Unspecified dev)
set(CPACK_DEBIAN_PACKAGE_SOURCE ec2fit)
set(CPACK_DEBIAN_UNSPECIFIED_PACKAGE_NAME ec2fit)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libec2fit-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
# ec2fit.pc says Requires: libcjson, so `pkg-config --libs ec2fit` needs
# libcjson.pc (libcjson-dev); -lm -ldl -pthread come from libc6-dev.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libcjson-dev, libc6-dev")
set(CPACK_DEBIAN_DEV_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_UNSPECIFIED_DESCRIPTION
    "EC2 instance advisor for ML workloads\n${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_DEBIAN_DEV_DESCRIPTION "EC2 instance advisor for ML workloads (static library and headers)
libec2fit is the library behind the ec2fit program: load the embedded
catalog of EC2 instance types and prices, describe a training or serving
workload, estimate memory and time, rank instance types and render the
result. This package holds the static library libec2fit.a (with the
embedded data), the C headers (usable from C++) and the pkg-config file
ec2fit.pc.")
include(CPack)
