"""The optional C kernels of the AI (engine/ai/_native.c, see engine/ai/native.py).

Everything else about the package is in pyproject.toml.  ``optional=True``: where
no C compiler is found the install goes on without them and the AI runs on its
pure-Python kernels (the same answers, slower)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine.ai._native",
            ["engine/ai/_native.c"],
            optional=True,
            extra_compile_args=["-O2", "-std=gnu11"],
        )
    ]
)
