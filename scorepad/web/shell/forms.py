"""What every form of the app shares. (A form's token against cross-site requests is put in by the one macro
`csrf_field` of templates/_macros.html.)"""

ECHO = 80  # what was typed, shown back beside a refusal: enough to see the slip, never a 10 MB page
