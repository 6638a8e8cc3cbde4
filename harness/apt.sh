# SPDX-License-Identifier: GPL-2.0-only
# A private apt configuration under build/apt for the Debian releases the
# host's own sources do not list (bookworm, trixie and trixie-backports,
# with their security updates), to fetch kernels with; sourced.  The
# host's apt configuration is left as it is.
APT_DIR=$BUILD/apt

apt_private() { # COMMAND ARGS...: apt-get or apt-cache on the private lists
	APT_CONFIG=$APT_DIR/apt.conf "$@"
}

apt_setup() {
	local mirror=http://deb.debian.org/debian key=/usr/share/keyrings/debian-archive-keyring.gpg
	local s

	mkdir -p "$APT_DIR"/{etc/sources.list.d,etc/preferences.d,state/lists/partial,cache/archives/partial,dl}
	: > "$APT_DIR/etc/sources.list.new"
	for s in bookworm trixie trixie-backports; do
		echo "deb [signed-by=$key] $mirror $s main" >> "$APT_DIR/etc/sources.list.new"
	done
	for s in bookworm-security trixie-security; do
		echo "deb [signed-by=$key] $mirror-security $s main" >> "$APT_DIR/etc/sources.list.new"
	done
	mv "$APT_DIR/etc/sources.list.new" "$APT_DIR/etc/sources.list"
	touch "$APT_DIR/state/status" "$APT_DIR/etc/preferences"
	cat > "$APT_DIR/apt.conf" <<-CONF
	Dir::Etc::SourceList "$APT_DIR/etc/sources.list";
	Dir::Etc::SourceParts "$APT_DIR/etc/sources.list.d";
	Dir::Etc::Preferences "$APT_DIR/etc/preferences";
	Dir::Etc::PreferencesParts "$APT_DIR/etc/preferences.d";
	Dir::State "$APT_DIR/state";
	Dir::State::status "$APT_DIR/state/status";
	Dir::Cache "$APT_DIR/cache";
	APT::Sandbox::User "root";
	CONF
	# Lists older than a day are fetched again.
	if [ -z "$(find "$APT_DIR/state/lists" -name '*_Packages' -mtime -1 2>/dev/null | head -n 1)" ]; then
		apt_private apt-get update -q >/dev/null 2>&1 ||
			die "apt-get update on the private sources ($APT_DIR) failed"
	fi
}

apt_fetch() { # PACKAGE...: download each into build/apt/dl once; prints the .deb paths
	local p deb

	for p in "$@"; do
		deb=$(ls "$APT_DIR/dl/${p}_"*.deb 2>/dev/null | head -n 1 || true)
		if [ -z "$deb" ]; then
			(cd "$APT_DIR/dl" && apt_private apt-get download -q "$p" 2>&1 |
				grep -v unsandboxed >&2) || die "apt-get download $p failed"
			deb=$(ls "$APT_DIR/dl/${p}_"*.deb)
		fi
		echo "$deb"
	done
}
