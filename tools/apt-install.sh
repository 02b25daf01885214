#!/bin/sh
# tools/apt-install.sh PKG...: apt-get installs the packages `make deps` found missing. When
# another apt or dpkg holds its locks (unattended-upgrades on a freshly booted machine), it waits
# for them, up to 10 minutes, instead of failing: apt-get waits for the dpkg lock itself
# (DPkg::Lock::Timeout), and the lists lock of `apt-get update` is retried here.
set -u
export DEBIAN_FRONTEND=noninteractive
deadline=$(($(date +%s) + 600))
said=0

# Runs "$@"; while it fails because another process holds an apt lock, tries again.
retry() {
	while :; do
		out=$("$@" 2>&1) && return 0
		case $out in
		*"Could not get lock"* | *"Unable to lock"* | *"Unable to acquire"*) ;;
		*) printf '%s\n' "$out" >&2; return 1 ;;
		esac
		if [ "$(date +%s)" -ge "$deadline" ]; then
			printf '%s\n' "$out" >&2
			echo "make deps: another apt held its lock for 10 minutes; try again later" >&2
			return 1
		fi
		[ "$said" = 1 ] || echo "make deps: waiting for another apt or dpkg to finish ..." >&2
		said=1
		sleep 5
	done
}

retry apt-get -o DPkg::Lock::Timeout=600 update -qq &&
	retry apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$@"
