# A package of the model's own modules, imported the ways real model files import theirs
# (tests/test_tracer_imports.cpp).
