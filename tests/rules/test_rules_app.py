"""``rules`` is a Django app of its own, and its engine imports no Django."""

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "rules"
ENGINE = sorted(path for path in RULES.rglob("*.py") if path.name != "apps.py")


def django_imports(path: Path) -> list[str]:
    """The Django modules ``path`` imports (at any depth of its code), as
    ``line module``, in the order of the lines."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        found += [
            (node.lineno, name)
            for name in names
            if name == "django" or name.startswith("django.")
        ]
    return [f"{line} {name}" for line, name in sorted(found)]


def test_the_engine_has_modules_to_check():
    assert RULES / "hexcombat" / "fire.py" in ENGINE
    assert RULES / "game" / "engine.py" in ENGINE
    assert RULES / "apps.py" not in ENGINE


@pytest.mark.parametrize("path", ENGINE, ids=lambda p: str(p.relative_to(RULES)))
def test_no_engine_module_imports_django(path):
    assert django_imports(path) == []


def test_the_check_would_see_a_django_import(tmp_path):
    module = tmp_path / "sneaky.py"
    module.write_text(
        "def late():\n    from django.utils import timezone\n    return timezone\n"
        "import django\n",
        encoding="utf-8",
    )
    assert django_imports(module) == ["2 django.utils", "4 django"]


def test_apps_py_is_the_one_module_that_may_import_django():
    assert [found.split()[1] for found in django_imports(RULES / "apps.py")] == [
        "django.apps"
    ]


def test_rules_is_an_installed_app():
    from django.apps import apps

    config = apps.get_app_config("rules")
    assert config.name == "rules"
    assert Path(config.path) == RULES
    assert type(config).__name__ == "RulesConfig"
