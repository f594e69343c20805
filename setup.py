"""Builds the extension module quixo._quixo with the project's CMake, in the release preset's
build folder (build/release: a module already built there is taken as it is), for
`pip install --no-build-isolation .`; the package's Python files come from python/quixo/."""
import os
import shutil
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = os.path.join(ROOT, "build", "release")
        if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
            subprocess.run(["cmake", "--preset", "release"], cwd=ROOT, check=True)
        subprocess.run(["cmake", "--build", build_dir, "--target", "quixo_python_module"],
                       cwd=ROOT, check=True)
        built = os.path.join(build_dir, "python", "quixo", os.path.basename(
            self.get_ext_filename(ext.name).replace(os.sep, "/")))
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built, target)


setup(
    packages=["quixo"],
    package_dir={"": "python"},
    package_data={"quixo": ["py.typed", "*.pyi"]},
    ext_modules=[Extension("quixo._quixo", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
