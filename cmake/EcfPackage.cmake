# Installed documentation and the Debian package (cpack -G DEB, from a
# Release build directory). The layout follows Debian policy so that lintian
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
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/schema DESTINATION ${ECF_DOCDIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ec2fit)
set(CPACK_PACKAGE_VENDOR "ec2fit")
set(CPACK_PACKAGE_CONTACT "ec2fit maintainers <maintainers@users.noreply.a-seed-e893510a.example>")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "EC2 instance advisor for ML workloads")
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
# The program only: the library's component "dev" stays out of the .deb.
set(CPACK_INSTALL_CMAKE_PROJECTS "${CMAKE_BINARY_DIR};ec2fit;Unspecified;/")
include(CPack)
