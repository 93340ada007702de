"""System checks for what the Python packages need from the machine (WeasyPrint's libraries, a font)."""
import shutil
import subprocess

from django.core.checks import Error, Warning, register

HINT = ("Install Pango, HarfBuzz and a TrueType font: on Debian/Ubuntu "
        "`apt-get install libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b fonts-dejavu-core`; "
        "on macOS `brew install pango`.")


@register()
def weasyprint_libraries(app_configs, **kwargs):
    try:
        import weasyprint  # noqa: F401  (imports Pango through cffi)
    except OSError as exc:
        return [Error(f"WeasyPrint cannot load its system libraries: {exc}", hint=HINT, id="core.E001")]
    fc_list = shutil.which("fc-list")
    if fc_list:
        fonts = subprocess.run([fc_list, ":", "family"], capture_output=True, text=True, check=False).stdout  # noqa: S603
        if not fonts.strip():
            return [Warning("No font is installed: PDF documents would render without text.", hint=HINT,
                            id="core.W001")]
    return []


@register(deploy=True)
def second_factor_enforced(app_configs, **kwargs):
    """`check --deploy`: a deployment never runs without the second factor or without its enforcement point."""
    from django.conf import settings

    errors = []
    if not getattr(settings, "OTP_REQUIRED", False):
        errors.append(Error("OTP_REQUIRED is off: administrators and the roles that move money would sign in "
                            "with a password alone.", hint="Remove OTP_REQUIRED from the settings (production "
                            "forces it on).", id="core.E010"))
    needed = ["django_otp.middleware.OTPMiddleware", "core.otp.SecondFactorMiddleware"]
    if [m for m in settings.MIDDLEWARE if m in needed] != needed:
        errors.append(Error("MIDDLEWARE needs django_otp.middleware.OTPMiddleware followed by "
                            "core.otp.SecondFactorMiddleware: nothing would ask for the second factor.",
                            id="core.E011"))
    return errors
