"""Builds the extension gpprobe._gpprobe with the repository's CMake build (python/CMakeLists.txt) and
packages gpprobe/ around it: `pip install --no-build-isolation ./python` (pyproject.toml).

The build runs in setuptools' temporary folder, a Release build of the core, the CLI library and the
module only (no GoogleTest suite, no CLI binary), for the interpreter running pip. GPPROBE_CMAKE_BUILD_DIR
names an already configured build folder to build the module in instead (e.g. build/native, so that a
developer's install reuses the compiled core); CMAKE_BUILD_PARALLEL_LEVEL sets the jobs (default 2);
GPPROBE_CMAKE_ARGS adds configure arguments (e.g. -DGPPROBE_NATIVE_ARCH=OFF for a module that runs on other
x86-64 machines than the one building it, such as a cluster's worker image).

Nothing is written into the source tree: setuptools' build folder and egg-info go to a temporary folder
(removed when the build ends), so a read-only checkout installs. pip shows the build's output only with
-v (`pip install -v --no-build-isolation ./python`); a fresh build compiles the core, about 10 minutes on
a 2-core machine.
"""

import atexit
import glob
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


class CMakeExtension(Extension):
    def __init__(self, name: str) -> None:
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        if not (ROOT / "core" / "include" / "gpprobe").is_dir():
            raise RuntimeError(f"{ROOT}: not the gpprobe repository (python/ builds from the repository around it)")
        given = os.environ.get("GPPROBE_CMAKE_BUILD_DIR")
        build_dir = Path(given).resolve() if given else Path(self.build_temp).resolve() / "cmake"
        if not (build_dir / "CMakeCache.txt").exists():
            subprocess.run(
                ["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                 f"-DPython3_EXECUTABLE={sys.executable}", "-DGPPROBE_BUILD_TESTS=OFF",
                 *shlex.split(os.environ.get("GPPROBE_CMAKE_ARGS", ""))],
                check=True,
            )
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "gpprobe_python", "-j", jobs], check=True)
        built = glob.glob(str(build_dir / "python" / "gpprobe" / "_gpprobe*.so"))
        if len(built) != 1:
            raise RuntimeError(f"expected one _gpprobe*.so in {build_dir}/python/gpprobe, found {built}")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], target)
        # The one-file page's template (npm run build writes it), for gpprobe.show / gpprobe.publish once
        # installed; without it they look for $GPPROBE_ONE_FILE_TEMPLATE and say how to build it.
        template = ROOT / "dist" / "single" / "gpprobe.html"
        if template.is_file():
            shutil.copyfile(template, target.parent / "one_file_template.html")


# setuptools' scratch (build/, gpprobe.egg-info/) outside the source tree, removed when this process ends.
SCRATCH = tempfile.mkdtemp(prefix="gpprobe-setup-")
atexit.register(shutil.rmtree, SCRATCH, ignore_errors=True)

setup(
    ext_modules=[CMakeExtension("gpprobe._gpprobe")],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": os.path.join(SCRATCH, "build")}, "egg_info": {"egg_base": SCRATCH}},
)
