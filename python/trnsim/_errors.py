"""InputError construction shared by the package's Python files (the class itself comes from the core binding)."""
from . import _trnsim


def input_error(field: str, message: str) -> Exception:
    """An InputError like the core's: str() is 'field: message', with .field and .message set."""
    err = _trnsim.InputError(field + ": " + message if field else message)
    err.field, err.message = field, message
    return err
