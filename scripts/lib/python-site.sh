# Sourced by scripts/run.sh and scripts/test.sh: makes `python3 -c "import quixo"` find the
# package in the release build (build/release/python), as `pip install --user -e .` would, which
# Debian 12 refuses for its own Python (PEP 668). It writes one .pth file into the user's
# site-packages; deleting that file undoes it. A venv install is in the README.
register_python_package() {
  local package_dir user_site pth
  package_dir="$(pwd)/build/release/python"
  [ -d "$package_dir/quixo" ] || return 0
  user_site=$(/usr/bin/python3 -m site --user-site)
  pth="$user_site/quixo-build-tree.pth"
  # A home that cannot be written (some CI runners) only costs the convenience, not the run.
  if [ "$(cat "$pth" 2>/dev/null)" != "$package_dir" ] &&
    ! { mkdir -p "$user_site" && echo "$package_dir" >"$pth"; } 2>/dev/null; then
    echo "python3: could not write $pth; import quixo with PYTHONPATH=$package_dir"
    return 0
  fi
  echo "python3: import quixo finds $package_dir (through $pth; delete it to undo)"
}
