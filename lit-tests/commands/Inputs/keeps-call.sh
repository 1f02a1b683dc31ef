#!/bin/sh
# interesting: a call to @helper remains and @main is defined
grep -q "call .*@helper(" "$1" && grep -q "^define .*@main(" "$1"
