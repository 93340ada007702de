"""Moved to core.rule_parameters (every app's engines read parameters; core sits below them all).

Kept so that older imports keep working; new code imports from core.rule_parameters.
"""
from core.rule_parameters import (  # noqa: F401
    DEFAULT_PARAMETERS_DIR,
    ExplicitParameters,
    ParameterNotFound,
    ParameterSource,
    ParameterVersion,
    ShippedParameters,
    in_force,
    shipped_parameters_dir,
    shipped_versions,
)
