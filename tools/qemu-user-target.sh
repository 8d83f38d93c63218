# Sourced by tools/test-runtime-<arch>.sh: `qemu_user_target TARGET QEMU GCC_PREFIX PKG...`
# installs what running TARGET's tests under qemu user-mode emulation needs (the rustup
# target; Debian's qemu-user and the cross gcc/libc packages PKG... when QEMU or GCC_PREFIX-gcc
# is missing) and exports cargo's linker and runner for it.
qemu_user_target() {
    local target="$1" qemu="$2" gcc="$3"
    shift 3
    if ! rustup target list --installed 2>/dev/null | grep -qx "$target"; then
        rustup target add "$target"
    fi
    local pkgs=()
    command -v "$qemu" >/dev/null 2>&1 || pkgs+=(qemu-user)
    command -v "$gcc-gcc" >/dev/null 2>&1 || pkgs+=("$@")
    if ((${#pkgs[@]})); then
        local sudo=""
        if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
        echo "qemu-user-target ($target): apt-get install ${pkgs[*]}"
        $sudo apt-get update -q
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${pkgs[@]}"
    fi
    local var
    var="CARGO_TARGET_$(tr 'a-z-' 'A-Z_' <<<"$target")"
    export "${var}_LINKER=$gcc-gcc"
    export "${var}_RUNNER=$qemu -L /usr/$gcc"
}
