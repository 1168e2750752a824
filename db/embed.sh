#!/bin/sh
# Turn an SQL file into a C string constant: embed.sh NAME < in.sql > out.c
echo "/* generated from schema.sql; do not edit */"
echo "const char $1[] ="
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/	"/' -e 's/$/\\n"/'
echo ";"
