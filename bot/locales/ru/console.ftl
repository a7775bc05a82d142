# Консоль (`tafl-bot local`). Команды консоли во всех языках пишутся по-английски (/move, /board…):
# их набирает игрок. $path — имена файлов.

console-help =
    Команды (те же, что в Discord; люди — это @имена, у каждого постоянный номер в базе):
      /challenge [@игрок] [вариант] [side:attackers|defenders|random] [clock:3d|3d+7d|none] [ключ=значение…]
                              вызвать игрока или, без имени, любого желающего (вариант по умолчанию copenhagen)
      /challenge @ai level:1..5 [rated:false] [вариант] [side:…] [clock:…]
                              сразу сыграть с движком; он отвечает на каждый ваш ход
      /accept [номер]  /decline [номер]  /cancel [номер]
                              ответить на вызов (без номера — на последний)
      /challenges             открытые вызовы: ваши и адресованные вам
      /move e1-e3 [game:N]    сделать ход (в вашей последней партии, если не указано game:N)
      /moves [начало]         ваши возможные ходы с пометками, как в автодополнении
      /board [N]              показать партию
      /hint [N]               ход движка в вашей нерейтинговой партии с ним, на картинке доски
      /games [@игрок] [all]   ваши (или чужие) партии; all добавляет законченные
      /resign [N]             сдать партию (без N — последнюю)
      /claim [N]              забрать победу в партии без часов, где соперник не ходит две недели
      /draw offer|accept|decline [N]
      /takeback request|accept|decline [N]
                              предложить ничью, попросить вернуть ход или ответить (без N — в последней партии)
      /export [N]             запись партии в OTN
      /summary [N]            итог партии (и её анимация рядом с досками)
      /leaderboard [вариант] [against_bot:true]
                              лучшие игроки семейства вариантов (по умолчанию copenhagen)
                              или его партий с ботом
      /profile [@игрок]       рейтинги, результаты за каждую сторону и текущая серия
      /import ФАЙЛ [@нападающие] [@защитники]
                              загрузить законченную партию из файла записи OTN
      /variants               готовые варианты, по строке о каждом
      /rules ВАРИАНТ          правила варианта в нескольких строках и картинка начальной позиции
      /tick                   запустить планировщик сейчас: напоминания, поражения по времени, брошенные партии, истёкшие вызовы
      /wait 2h                пропустить время (1d, 90m, 1d12h…), запуская планировщик, как бот
      /as @bob                играть дальше за @bob (вначале вы — @you)
      as @bob /accept         выполнить одну команду за @bob
      /help  /quit
console-welcome = tafl-bot local: база { $path }. Список команд: /help.
console-error = ошибка: { $message }
console-bye = до встречи
console-line-too-long = строка команды длиннее 64 КБ, больше консоль не читает; сеанс окончен
console-db-unavailable = не удаётся открыть базу данных { $name }: { $error }
console-db-unencoded-password = не удаётся открыть базу данных { $name }: в пароле есть знак «{ $character }», а в адресе он означает конец имени сервера; запишите пароль в процентной кодировке: / как %2F, ? как %3F, # как %23, @ как %40
console-db-no-folder = не удаётся открыть базу данных { $name }: папки { $folder } нет; создайте её или укажите файл в существующей папке
console-db-is-folder = не удаётся открыть базу данных { $name }: это папка, а не файл базы; укажите файл в ней, например { $file }
console-db-no-file = не удаётся открыть базу данных { $name }: в адресе не указан файл, а консоль хранит партии в файле, чтобы к ним можно было вернуться в следующий раз; укажите файл, например tafl-local.db
console-db-of-discord = в базе данных { $name } хранятся данные бота в Discord (партии, вызовы или настройки серверов); консоль играет только в собственной базе (после каждой команды она очищает очередь сообщений, которые ещё должны увидеть игроки в Discord), поэтому укажите другую базу
console-db-unknown-scheme = не удаётся открыть базу данных: tafl-bot хранит партии только в SQLite или PostgreSQL, не в { $scheme }; укажите файл или адрес sqlite://ФАЙЛ или postgres://ПОЛЬЗОВАТЕЛЬ@ХОСТ/БАЗА
console-db-no-scheme = не удаётся открыть базу данных { $name }: в адресе перед :// не указано, что это за база; укажите файл или адрес sqlite://ФАЙЛ или postgres://ПОЛЬЗОВАТЕЛЬ@ХОСТ/БАЗА
console-db-in-use = не удаётся открыть базу данных { $name }: её использует другая программа ({ $holder }, она держит блокировку { $lock }), а один файл SQLite может использовать только одна программа за раз; сначала остановите её или укажите другую базу
console-db-folder-not-writable = не удаётся открыть базу данных { $name }: в папку { $folder } нельзя записывать, а SQLite создаёт в ней файл базы и файлы -wal и -shm: { $cause ->
        [permission] права доступа к ней не позволяют писать туда пользователю, от имени которого запущен tafl-bot; дайте ему право записи (chown или chmod) или укажите файл в другом месте
        [read-only] она на файловой системе, смонтированной только для чтения; смонтируйте её для записи или укажите файл на другой файловой системе
       *[other] { $error }; сделайте папку доступной для записи или укажите файл в другом месте
    }
console-db-file-not-writable = не удаётся открыть базу данных { $name }: в файл { $file } нельзя записывать, и ни одна партия не сохранится: { $cause ->
        [permission] права доступа к нему не позволяют изменять его пользователю, от имени которого запущен tafl-bot; дайте ему право записи (chown или chmod) или укажите файл в другом месте
        [read-only] он на файловой системе, смонтированной только для чтения; смонтируйте её для записи или укажите файл на другой файловой системе
       *[other] { $error }; сделайте файл доступным для записи или укажите файл в другом месте
    }
console-db-disk-full = не удаётся открыть базу данных { $name }: диск, на котором лежит { $file }, заполнен, и SQLite не может записать ни базу, ни её файлы -wal и -shm; освободите на нём место и запустите консоль снова
console-db-backup-disk-full = не удаётся открыть базу данных { $name }: диск, на котором лежит { $file }, заполнен: перед обновлением базы tafl-bot делает её резервную копию рядом с ней, а для этого нужно примерно столько же свободного места, сколько занимает сама база ({ $size } МБ); освободите на диске место и запустите консоль снова
console-db-locked = не удаётся открыть базу данных { $name }: другая программа держит { $file } заблокированной (SQLite отвечает «database is locked»); завершите её транзакцию или остановите её и запустите консоль снова
console-db-not-a-database = не удаётся открыть базу данных { $name }: файл { $file } — не база данных SQLite или повреждённая база; укажите файл базы tafl-bot (если он повреждён, восстановите его из резервной копии) или ещё не существующий файл, чтобы начать новую базу
console-db-not-ours = не удаётся открыть базу данных { $name }: в ней есть таблицы, но это не база tafl-bot ({ $why ->
        [no-history] в ней нет таблицы _sqlx_migrations
       *[other-history] её таблица _sqlx_migrations хранит миграции другой программы
    }); укажите базу самого tafl-bot или новую
console-db-newer = не удаётся открыть базу данных { $name }: её записала более новая версия tafl-bot (версия схемы { $found }, а эта версия знает только версии до { $known }); запустите ту, более новую версию или восстановите резервную копию, сделанную до обновления
console-db-migration-changed = не удаётся открыть базу данных { $name }: миграция { $version }, записанная в базе, отличается от миграции этой версии tafl-bot; базу создала другая сборка tafl-bot, поэтому запустите ту сборку или восстановите резервную копию, сделанную до неё
console-db-migration-unfinished = не удаётся открыть базу данных { $name }: миграцию { $version } не завершила другая программа; восстановите базу из резервной копии
console-db-backup-failed = не удаётся открыть базу данных { $name }: не удаётся сделать резервную копию базы перед её обновлением: { $error }
console-db-migration-failed = не удаётся открыть базу данных { $name }: миграция { $version } ({ $description }) не удалась и отменена: { $error }
console-db-migrations-failed = не удаётся открыть базу данных { $name }: миграции не удались: { $error }
console-session-failed = { $failures ->
    [one] { $failures } команда сеанса не выполнена
    [few] { $failures } команды сеанса не выполнены
   *[many] { $failures } команд сеанса не выполнено
} (см. строки с ошибками выше)
console-as-inside-as = as { $player } выполняет одну команду за { $player }; чтобы переключиться насовсем, наберите /as отдельно, например /as @bob
console-moves-cut = показано { $shown } из { $total }; уточните начало хода, например /moves { $prefix }
console-games-cut = показано { $shown } из { $total }, сначала новые; уточните, например /games { $player } (только идущие)
console-import-two-players = укажите не больше двух игроков: сначала нападающих, потом защитников, например /import game.otn @ann @ben
console-bad-record-player = неверное имя в теге игрока записи (сторона: { $side }): { $error }; укажите игроков, например /import ФАЙЛ @ann @ben
console-as-needs-command = после имени напишите команду, например: as @bob /accept
console-as-needs-slash = после имени напишите команду со слэшем, например: as @bob /accept
console-not-a-command = команды начинаются с /, например /move e1-e3; список команд: /help
console-unknown-command = команды /{ $name } нет; список команд: /help
console-unknown-command-meant = команды /{ $name } нет; может быть, /{ $meant }? Список команд: /help
console-as-usage = напишите, за кого играть, например /as @bob
console-now-playing = теперь вы — { $player }
console-bad-name = «{ $input }» — не имя; напишите @ и до 32 букв, цифр, точек, дефисов или подчёркиваний, например @bob или @ann_lee
console-no-such-player = игрока { $player } нет
console-name-of-the-engine = @ai — имя движка; выберите другое, например @bob
console-bad-game-number = «{ $input }» — не номер партии; напишите номер, например 12 (ваши партии покажет /games)
console-bad-challenge-number = «{ $input }» — не номер вызова; напишите номер, например 3 (вызовы покажет /challenges)
console-bad-side = «{ $input }» — не сторона; выберите attackers, defenders или random
console-bad-challenge-option = «{ $input }» — не параметр вызова; см. /help
console-two-opponents = вызов адресуется одному сопернику; укажите { $first } или { $second }, но не обоих (или никого, чтобы вызвать любого желающего)
console-two-levels = выберите один уровень движка: { $first } или { $second }, но не оба
console-two-games = укажите одну партию: { $first } или { $second }, но не обе
console-games-two-players = /games показывает партии одного игрока: укажите { $first } или { $second }, но не обоих
console-two-variants = выберите один вариант: { $first } или { $second }, но не оба
console-two-sides = выберите одну сторону: { $first } или { $second }, но не обе
console-two-clocks = выберите один контроль времени: { $first } или { $second }, но не оба
console-two-rated = укажите один раз, рейтинговая ли это игра: { $first } или { $second }, но не оба
console-bad-level = «{ $input }» — не уровень; выберите уровень от 1 до 5, например level:3
console-bad-flag = «{ $input }»: напишите { $option }:true или { $option }:false
console-bad-option = «{ $input }» — не параметр /{ $command }; см. /help
console-unknown-leaderboard = «{ $input }» — не вариант и не семейство вариантов; варианты: { $variants }; семейства (у вариантов одного семейства общая таблица лидеров): { $families }

console-anyone = любой желающий
console-with-clock = , часы: { $per_move } на ход
console-with-reserve = , часы: { $per_move } на ход, неиспользованное время копится, но не больше, чем { $cap }
console-challenge = вызов №{ $id }: { $by } → { $to }, вариант: { $variant }{ $options }; сторона вызывающего: { $side }.
console-challenge-answer = { $player } может ответить так: as { $player } /accept { $id }
console-challenge-answer-open = ответить может любой: as @имя /accept { $id }
console-no-challenge-to-cancel = у вас нет открытого вызова, который можно отменить
console-no-challenge-to-answer = нет открытого вызова, на который вы можете ответить
console-accepted = { $by } принимает вызов №{ $challenge }: начинается партия №{ $id }, вариант: { $variant }; нападающие: { $attacker }, защитники: { $defender }.
console-declined = { $by } отклоняет вызов №{ $id } от { $challenger }
console-cancelled = вызов №{ $id } отменён
console-no-open-challenges = открытых вызовов нет
console-challenge-line = №{ $id } { $by } → { $to }: { $variant } { $options }

console-no-game = у вас нет идущей партии; начните с /challenge
console-no-game-of-yours = вы не играли ни одной партии; укажите партию по номеру, его покажет /games @игрок all
console-move-usage = напишите ход, например /move e1-e3
console-played = { $by }: ход { $notation } (партия №{ $id }, полуход { $ply })
console-no-legal-move = нет возможных ходов, начинающихся с «{ $prefix }»
console-no-ongoing-games = у игрока { $player } нет идущих партий
console-no-games = у игрока { $player } нет партий
console-turn = ходит { $player }
console-time-left = { $state }, осталось { $left }
console-claimable-state = { $state }, ходов нет две недели: /claim закончит партию
console-game-line = партия №{ $id }: { $variant }, соперник: { $opponent }, сторона: { $side }, полуход { $ply }: { $state }
console-resigned = { $by } сдаёт партию №{ $id }.
console-draw-usage = напишите /draw offer, /draw accept или /draw decline
console-takeback-usage = напишите /takeback request, /takeback accept или /takeback decline
console-offered-draw = { $by } предлагает ничью в партии №{ $id }; { $other } может ответить: /draw accept или /draw decline
console-offered-takeback = { $by } просит вернуть ход в партии №{ $id }; { $other } может ответить: /takeback accept или /takeback decline
console-takeback-accepted = { $by } соглашается: в партии №{ $id } { $plies ->
    [one] возвращён { $plies } полуход
    [few] возвращены { $plies } полухода
   *[many] возвращено { $plies } полуходов
}.
console-draw-accepted = { $by } соглашается на ничью.
console-withdrew-draw = { $by } отзывает предложение ничьей
console-withdrew-takeback = { $by } отзывает просьбу вернуть ход
console-declined-draw = { $by } отклоняет ничью
console-declined-takeback = { $by } отказывает в возврате хода
console-game-animation = анимация партии: { $path }
console-rules-usage = укажите вариант, например /rules brandubh (все варианты: /variants)
console-import-usage = укажите файл записи, например /import game.otn @ann @ben
console-cannot-read = не удаётся прочитать { $path }
console-cannot-read-missing = не удаётся прочитать { $path }: такого файла нет
console-cannot-read-denied = не удаётся прочитать { $path }: нет прав на чтение
console-cannot-read-folder = не удаётся прочитать { $path }: это папка, а не файл
console-too-large = не удаётся прочитать { $path }: файл больше 1 МБ, больше бот не читает
console-imported = загружено как партия №{ $id } ({ $variant }, { $plies ->
    [one] { $plies } полуход
    [few] { $plies } полухода
   *[many] { $plies } полуходов
}); нападающие: { $attacker }, защитники: { $defender }.

console-nothing-due = сейчас выполнять нечего
console-bad-wait = «{ $input }» — не срок ожидания; напишите, например, 2h, 90m, 1d или 1d12h (не больше года)
console-wait-usage = укажите, сколько ждать, например /wait 2h, 90m, 1d или 1d12h (не больше года)
console-nothing-came-due = за это время ничего не подошло по сроку
console-waited = прошло { $duration }:
console-reminder = напоминание: { $player }, половина вашего времени в партии №{ $id } прошла; осталось { $left }
console-last-warning = последнее предупреждение: { $player }, в партии №{ $id } осталось всего { $left }
console-claim-warning = предупреждение: { $player }, в партии №{ $id } нет часов, и если вы не сделаете ход, через { $left } { $opponent } сможет забрать победу
console-claim-warning-aborts = предупреждение: { $player }, в партии №{ $id } нет часов, и если вы не сделаете ход, через { $left } { $opponent } сможет прервать её без результата
console-timed-out = у игрока { $player } кончилось время в партии №{ $id }.
console-challenge-expired = вызов №{ $id } от { $by } истёк без ответа
console-claimable = { $player } может забрать победу в партии №{ $id } командой /claim: ходов от { $absent } не было { $days ->
    [one] { $days } день
    [few] { $days } дня
   *[many] { $days } дней
}.
console-claimed = { $player } забирает победу в партии №{ $id }: ходов от { $absent } не было { $days ->
    [one] { $days } день
    [few] { $days } дня
   *[many] { $days } дней
}.
console-claimed-aborted = { $player } прерывает партию №{ $id } без результата: ходов от { $absent } не было { $days ->
    [one] { $days } день
    [few] { $days } дня
   *[many] { $days } дней
}, а до второго хода партия не дошла.
console-claimable-aborts = { $player } может прервать партию №{ $id } без результата командой /claim: ходов от { $absent } не было { $days ->
    [one] { $days } день
    [few] { $days } дня
   *[many] { $days } дней
}, а до второго хода партия не дошла.
console-digest = сводка для { $player }: ваш ход в { $count ->
    [one] { $count } партии
   *[other] { $count } партиях
}: { $games }
console-digest-game = №{ $id } ({ $variant }, соперник: { $opponent }{ $left })
console-left = , осталось { $left }
console-paused-games = { $player } теперь может закончить { $count ->
    [1] партию { $games }
   *[other] партии { $games }
} без результата командой /claim: бота удалили с { $count ->
    [1] её сервера
   *[other] их сервера
}.
console-grace = планировщик не работал: сроки партий { $games } сдвинуты и теперь истекают через { $after }

console-game-over = партия №{ $id } окончена: { $result }
console-winner = побеждает { $player }
console-result = итог: { $status }{ $reason }
# Не «{ $player } ({ $side })»: у имени бота свои скобки.
console-to-move = партия №{ $id }, полуход { $ply }: ходит { $player } за { $side ->
    [attackers] нападающих
   *[defenders] защитников
}
console-reserve = { " " }(запас { $reserve })
console-board-image = картинка доски: { $path }
console-hint = движок сыграл бы { $notation } в партии №{ $id }
console-summary-card = карточка итога: { $path }
console-leaderboard-card = карточка таблицы лидеров: { $path }
console-profile-card = карточка профиля: { $path }

# Длительности так, как их печатает консоль: «1 дн. 12 ч», «30 мин» (части — через пробел, раз единицы
# отделены от чисел).
console-unit-days = { $n } дн.
console-unit-hours = { $n } ч
console-unit-minutes = { $n } мин
console-unit-seconds = { $n } с
