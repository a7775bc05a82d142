# Партии, вызовы и уведомления. О людях пишем так, чтобы подходило любому: настоящее время
# («сдаётся», «отклоняет») или безличные обороты, без глаголов прошедшего времени с родом.

language-name = Русский

## Стороны и варианты

side-attackers = нападающие
side-defenders = защитники
side-heading-attackers = ⚔️ Нападающие
side-heading-defenders = 🛡️ Защитники
side-plain-attackers = Нападающие
side-plain-defenders = Защитники
side-choice-attackers = нападающие
side-choice-defenders = защитники
side-choice-random = по жребию

variant-sea-battle-9 = Морской бой 9×9
variant-sea-battle-11 = Морской бой 11×11
variant-sea-battle-13 = Морской бой 13×13
variant-sea-battle-15 = Морской бой 15×15
variant-tablut = Таблут
variant-brandubh = Брандубх
variant-hnefatafl = Хнефатафл
variant-historical-7 = Исторический тафл 7×7
variant-historical-9 = Исторический тафл 9×9
variant-historical-11 = Исторический тафл 11×11
variant-copenhagen = Копенгагенский хнефатафл
variant-fetlar = Фетларский хнефатафл
variant-custom = свои правила

family-sea-battle = Морской бой
family-seed-001 = Таблут · Брандубх · Хнефатафл
family-historical = Исторический тафл
family-copenhagen = Копенгагенский хнефатафл
family-fetlar = Фетларский хнефатафл

game-number = партия №{ $id }
short-number = №{ $id }
thread-versus = —

## Сообщение с доской

board-title = { $variant } · партия №{ $id }
board-to-move = Ход { $number }: ходит { $player }
board-last-move = Последний ход: `{ $notation }`
board-captured = Захвачено: нападающими { $attackers }, защитниками { $defenders }
board-clock = ⏱️ { $clock }
board-reserves = Запас времени: у нападающих { $attackers }, у защитников { $defenders }
# В партии с ботом — только запас человека: у ходов бота нет часов.
board-reserve-attackers = Запас времени: у нападающих { $reserve }
board-reserve-defenders = Запас времени: у защитников { $reserve }
board-deadline = ⏰ Время хода истекает { $when }
board-offer-draw = 🤝 { $by } предлагает ничью
board-offer-takeback = ↩️ { $by } просит вернуть { $plies ->
    [1] свой последний ход
   *[other] свой последний ход и ответ на него
}
piece-option = { $square } ({ $moves ->
    [one] { $moves } ход
    [few] { $moves } хода
   *[many] { $moves } ходов
})
move-label-captures = { $notation } x { $captures }
move-effect-king-escaped = король уходит!
move-effect-king-captured = захватывает короля!
move-effect-exit-fort = крепость!
move-effect-encirclement = окружение!
move-effect-no-moves = не оставляет ходов!
move-effect-repetition-wins = повторение: победа!
move-effect-repetition-draws = повторение: ничья
move-effect-repetition-loses = повторение: проигрыш!
move-effect-threat = угроза

result-attackers = **Победа нападающих** — { $player }: { $how }
result-defenders = **Победа защитников** — { $player }: { $how }
result-draw = **Ничья**: { $how }
result-aborted = **Без результата**: { $how }
how-king-escaped = король ушёл на { $square }
how-king-captured = король захвачен на { $square }
how-encirclement = защитники окружены
how-exit-fort = неприступная крепость на краю
how-repetition = повторение позиции
how-no-moves = у проигравшей стороны не осталось ходов
how-resignation = { $player } сдаётся
how-time = у игрока { $player } кончилось время
how-abandoned = партия брошена игроком { $player }
how-aborted = партия прервана до второго хода
how-bot-removed = партию закончил игрок через две недели после того, как бота удалили с её сервера
how-agreement = по соглашению

## Кнопки и меню

label-accept = Принять
label-decline = Отклонить
label-pick-piece = Ход: выберите фигуру
label-pick-destination = { $square }: куда пойти?
label-back = Другая фигура
label-resign = Сдаться
label-confirm-resign = Да, сдаюсь
label-offer-draw = Предложить ничью
label-accept-draw = Принять ничью
label-decline-draw = Отклонить ничью
label-takeback = Вернуть ход
label-accept-takeback = Разрешить возврат
label-decline-takeback = Отказать в возврате
label-more-pieces = Ещё фигуры…
label-more-moves = Ещё ходы…

## Уведомления

your-move-after = { $player }, ваш ход в партии №{ $id } ({ $variant }): сыгран `{ $notation }`.
your-move-after-takeback = { $player }, ваш ход в партии №{ $id } ({ $variant }) после возврата хода.
your-move-first = { $player }, ваш ход: партия №{ $id } ({ $variant }) началась.
played = Вы сыграли `{ $notation }` в партии №{ $id }.
offer-draw = { $player }, { $by } предлагает ничью в партии №{ $id }: примите или отклоните на доске.
offer-takeback = { $player }, { $by } просит вернуть { $plies ->
    [1] ход
   *[other] свой ход и ваш ответ на него
} в партии №{ $id }: ответьте на доске.
# Извещение о предложении, отправленное с опозданием, когда на него уже ответили или его отозвали: отвечать не на что.
offer-draw-made = { $by } предлагает ничью в партии №{ $id }.
offer-takeback-made = { $by } просит вернуть ход в партии №{ $id }.
offer-draw-withdrawn = { $by } отзывает предложение ничьей в партии №{ $id }.
offer-takeback-withdrawn = { $by } отзывает просьбу вернуть ход в партии №{ $id }.
offer-draw-declined = { $by } отклоняет ничью в партии №{ $id }.
offer-takeback-declined = { $by } отказывает в возврате хода в партии №{ $id }.
offer-takeback-accepted = { $by } соглашается: в партии №{ $id } { $plies ->
    [one] возвращён { $plies } полуход
    [few] возвращены { $plies } полухода
   *[many] возвращено { $plies } полуходов
}.
offer-draw-accepted = { $by } соглашается на ничью в партии №{ $id }.
# Те же события в личном ответе тому, кто их совершил, — его словами.
answer-draw-offered = Вы предложили ничью в партии №{ $id }; { $player } ответит на доске.
answer-takeback-asked = Вы попросили вернуть { $plies ->
    [1] свой последний ход
   *[other] свой последний ход и ответ игрока { $player } на него
} в партии №{ $id }; { $player } ответит на доске.
answer-draw-withdrawn = Вы отозвали предложение ничьей в партии №{ $id }.
answer-takeback-withdrawn = Вы отозвали просьбу вернуть ход в партии №{ $id }.
answer-draw-declined = Вы отклонили ничью в партии №{ $id }.
answer-takeback-declined = Вы отказали в возврате хода в партии №{ $id }.
answer-takeback-accepted = Вы согласились: в партии №{ $id } { $plies ->
    [one] возвращён { $plies } полуход
    [few] возвращены { $plies } полухода
   *[many] возвращено { $plies } полуходов
}.
answer-draw-accepted = Вы согласились на ничью в партии №{ $id }.
confirm-resign = Сдать партию №{ $id }? Победа перейдёт к сопернику; отменить будет нельзя.
resigned = Вы сдали партию №{ $id }.
resign-stale = Партия №{ $id } изменилась, пока вы решали, поэтому вы не сдались; чтобы сдаться сейчас, нажмите «{ $resign }» на текущей доске.
claimed = Вы забрали победу в партии №{ $id }: ходов от игрока { $player } не было { $days ->
    [one] { $days } день
    [few] { $days } дня
   *[many] { $days } дней
}.
claimed-aborted = Партия №{ $id } прервана: ходов от игрока { $player } не было { $days ->
    [one] { $days } день
    [few] { $days } дня
   *[many] { $days } дней
}, а до второго хода партия так и не дошла, поэтому она без результата и рейтинга.
claimed-bot-removed = Партия №{ $id } окончена: бота нет на её сервере уже { $days ->
    [one] { $days } день
    [few] { $days } дня
   *[many] { $days } дней
} или больше, поэтому она без результата и без рейтинга.

## Вызовы

challenge-title = Вызов №{ $id }: { $variant }
challenge-to = { $by } вызывает на партию игрока { $opponent }: { $variant }.
challenge-open = { $by } ищет соперника: { $variant }. Принять может любой.
challenge-side = Сторона вызывающего: { $side }
challenge-options = Опции: `{ $options }`
challenge-expires = Вызов истекает { $when }.
challenge-declined = { $by } отклоняет вызов №{ $id }.
challenge-cancelled = { $by } отзывает вызов №{ $id }.
challenge-expired = Вызов №{ $id } истёк без ответа.
challenge-accepted = Вызов №{ $id } принят.

## Часы

clock-per-move = Время на ход: { $per_move }
clock-with-reserve = Время на ход: { $per_move }, неиспользованное время копится, но не больше, чем { $cap }
clock-untimed = Без часов: думайте сколько угодно
days = { $n ->
    [one] { $n } день
    [few] { $n } дня
   *[many] { $n } дней
}
hours = { $n ->
    [one] { $n } час
    [few] { $n } часа
   *[many] { $n } часов
}
minutes = { $n ->
    [one] { $n } минута
    [few] { $n } минуты
   *[many] { $n } минут
}
seconds = { $n ->
    [one] { $n } секунда
    [few] { $n } секунды
   *[many] { $n } секунд
}

## Списки партий, напоминания и сводка

game-line = [№{ $id }]({ $link }) { $variant } · соперник: { $opponent } · { $side } · ход { $number } · { $state }{ $clock }
game-line-plain = №{ $id } { $variant } · соперник: { $opponent } · { $side } · ход { $number } · { $state }{ $clock }
game-line-clock = { " " }· ⏰ { $when }
game-line-claimable = { " " }· соперник не ходит две недели: партию можно закончить командой { $claim }
game-line-paused = { " " }· ⏸ приостановлена: бота нет на её сервере
game-line-paused-may-end = { " " }· ⏸ приостановлена: бота нет на её сервере; любой из игроков может закончить её без результата командой { $claim }
game-line-channel-gone = { " " }· канал удалён: продолжить можно командой { $board } в другом канале
game-state-finished = окончена
game-state-your-move = **ваш ход**
game-state-their-move = ход соперника
game-state-player-to-move = **ходит { $player }**
game-state-opponent-to-move = ход соперника
game-choice = №{ $id } { $variant }, соперник: { $opponent } · { $state }
game-choice-your-move = ваш ход
game-choice-their-move = ход соперника
games-title = { $count ->
    [one] Идёт { $count } партия
    [few] Идут { $count } партии
   *[many] Идёт { $count } партий
}
games-more = { $count ->
    [one] …и ещё { $count } партия
    [few] …и ещё { $count } партии
   *[many] …и ещё { $count } партий
}
no-games = У вас нет идущих партий. Начните партию командой { CMD("challenge") }.
no-games-other = У игрока { $player } нет идущих партий.
reminder-halfway = { $player }, ваш ход в партии №{ $id } ({ $variant }); половина времени прошла, оно истекает { $when }.
reminder-last = { $player }, последнее предупреждение: время в партии №{ $id } ({ $variant }) истекает { $when }, и тогда вы проиграете партию.
reminder-last-aborts = { $player }, последнее предупреждение: время в партии №{ $id } ({ $variant }) истекает { $when }, и тогда партия будет прервана без результата: до второго хода она не дошла.
reminder-claim = { $player }, в партии №{ $id } ({ $variant }) ваш ход, а часов в ней нет; если вы не сделаете ход, { $opponent } сможет забрать победу { $when }.
reminder-claim-aborts = { $player }, в партии №{ $id } ({ $variant }) ваш ход, а часов в ней нет; если вы не сделаете ход, { $opponent } сможет прервать партию без результата { $when }.
digest-title = { $count ->
    [one] Ваш ход в { $count } партии
   *[other] Ваш ход в { $count } партиях
}
paused-games-title = { $count ->
    [1] Приостановленную партию можно закончить
   *[other] Приостановленные партии можно закончить: { $count }
}
paused-games-intro = Бота удалили с сервера { $count ->
    [1] этой партии
   *[other] этих партий
} { $when }, и он не вернулся. Пока бота нет, время не идёт ни у кого из игроков, а если бота вернут на сервер, партия продолжится с того же места.
claimable = { $player }, ходов от игрока { $absent } в партии №{ $id } ({ $variant }) не было { $days ->
    [one] { $days } день
    [few] { $days } дня
   *[many] { $days } дней
}: вы можете забрать победу командой { $claim } или подождать ещё.
claimable-aborts = { $player }, ходов от игрока { $absent } в партии №{ $id } ({ $variant }) не было { $days ->
    [one] { $days } день
    [few] { $days } дня
   *[many] { $days } дней
}: вы можете прервать партию командой { $claim } (без результата: до второго хода она не дошла) или подождать ещё.
board-posted = Доска партии №{ $id } опубликована ниже; у старого сообщения кнопки пропадут.
board-posted-there = Доска партии №{ $id } опубликована в { $thread ->
    [yes] ветке
   *[no] канале
} { $channel }; у старого сообщения кнопки пропадут.
board-on-its-way-there = Вы уже попросили новую доску партии №{ $id }; она вот-вот появится в { $thread ->
    [yes] ветке
   *[no] канале
} { $channel }.
board-on-its-way = Вы уже попросили новую доску партии №{ $id }; она вот-вот появится ниже.
board-just-posted = Доску партии №{ $id } только что опубликовали заново: { $link }
board-moved = Партия №{ $id } теперь идёт в этом канале; её доска опубликована ниже.
channel-gone = Канал партии №{ $id } удалён; чтобы продолжить её в другом канале, используйте там команду { CMD("board") }.
export-caption = Партия №{ $id } в записи OTN — нотации, которую читает OpenTafl.

# Бот как игрок (уровни называются по имени, без упоминаний).
bot-player = Тафл-бот (уровень { $level })
family-against-bot = { $family } · против бота
bot-game-started = Партия №{ $id } началась, ваш соперник — { $bot }.
hint = Движок сыграл бы `{ $notation }` в партии №{ $id }; ход показан на доске.
