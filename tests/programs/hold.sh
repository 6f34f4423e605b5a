#!/bin/sh
# Starts a background child that keeps stdout open (and, with `setsid` as $2, one that leaves
# the session), writes their pids to the file $1, then answers like cat.
PIDS=$1
MODE=$2
if [ "$MODE" = setsid ]; then
    setsid sleep 30 &
else
    sleep 30 &
fi
echo $! >> "$PIDS"
cat
