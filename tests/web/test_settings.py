"""WEB_PORT, WEB_HOST, WEB_BASE_URL and WEB_LINK_DAYS as an operator writes them."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.config import Settings


def read(**env: str) -> Settings:
    return Settings(_env_file=None, **env)  # type: ignore[arg-type]


def test_defaults_mean_no_server() -> None:
    settings = read()
    assert settings.web_port is None
    assert settings.web_host == "127.0.0.1"
    assert settings.web_base_url is None
    assert settings.web_link_days == 30


def test_empty_lines_from_env_example_are_unset() -> None:
    settings = read(web_port="", web_base_url=" ")
    assert settings.web_port is None and settings.web_base_url is None


def test_the_links_default_to_localhost_and_the_port() -> None:
    assert read(web_port="8080").web_links_base == "http://localhost:8080"
    settings = read(web_port="8080", web_base_url="https://table.example.org")
    assert settings.web_links_base == "https://table.example.org"
    assert read(web_base_url=" http://10.0.0.5:8080 ").web_base_url == "http://10.0.0.5:8080"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"web_port": "0"}, "greater than or equal to 1"),
        ({"web_port": "65536"}, "less than or equal to 65535"),
        ({"web_port": "http"}, "valid integer"),
        ({"web_link_days": "0"}, "greater than or equal to 1"),
        ({"web_link_days": "366"}, "less than or equal to 365"),
        ({"web_base_url": "table.example.org"}, "must start with http:// or https://"),
        ({"web_base_url": "ftp://table.example.org"}, "must start with http:// or https://"),
        ({"web_base_url": "https://"}, "must start with http:// or https://"),
        ({"web_base_url": "https://table example.org"}, "must start with http:// or https://"),
        ({"web_base_url": "https://table.example.org/"}, "must not end with a slash"),
    ],
)
def test_bad_values_are_refused(env: dict[str, str], message: str) -> None:
    with pytest.raises(ValidationError) as error:
        read(**env)
    assert message in str(error.value)
