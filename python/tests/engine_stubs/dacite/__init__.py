"""Stand-in for dacite's from_dict, enough for ms-swift's flat request dataclasses: known fields are passed to
the constructor (nested dataclasses are not converted)."""

import dataclasses


def from_dict(data_class, data, config=None):
    names = {field.name for field in dataclasses.fields(data_class)}
    return data_class(**{key: value for key, value in data.items() if key in names})
