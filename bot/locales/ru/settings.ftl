# /тафл настройки: что показывает и от чего отказывается.

settings-saved = Сохранено.
settings-on = вкл.
settings-off = выкл.
settings-yours = **Ваши настройки**
settings-dm = Напоминания и уведомления в личные сообщения: { $value }
settings-digest = Ежедневная сводка: { $value }
settings-orientation = Ориентация доски: { $value }
settings-theme = Тема доски: { $value }
orientation-standard = обычная (a1 внизу слева)
orientation-flipped = перевёрнутая
theme-classic = классическая
theme-high-contrast = контрастная
settings-server = **Этот сервер** (меняют администраторы)
settings-language = Язык общих сообщений: { $language }
settings-language-auto = { $language } (язык сервера)
settings-threads = Ветка для каждой партии: { $value }
settings-default-clock = Часы по умолчанию: `{ $clock }`. { $words }
settings-channels = Каналы для партий: { $channels }
settings-every-channel = все
settings-channels-cut = { $channels } и ещё { $count }
language-auto = Язык самого сервера

settings-not-in-server = Настройки сервера меняют на сервере; здесь работают ваши личные ({ $personal }).
settings-not-manager = Настройки сервера меняют только те, кто может управлять сервером; свои настройки ({ $personal }) вы меняете сами.
settings-not-for-games = В канале { $channel } играть нельзя; укажите текстовый или голосовой канал, канал объявлений или форум.
settings-allow-and-disallow = Канал { $channel } можно либо разрешить, либо запретить, но не то и другое сразу.
settings-every-channel-already = Партии разрешены во всех каналах; чтобы ограничить их, разрешите нужные каналы параметром { $allow_channel }, и остальные закроются.
settings-last-channel = { $channel } — единственный канал для партий; сначала разрешите другой или все сразу параметром { $all_channels }.
settings-all-and-one = Разрешите все каналы или разрешите либо запретите один, но не то и другое сразу.
settings-all-false = Чтобы ограничить партии некоторыми каналами, разрешите их параметром { $allow_channel }.
settings-unknown-language = Бот не говорит на языке «{ $input }»; выберите язык из списка.
